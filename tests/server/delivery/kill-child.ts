/**
 * The worker process of kill.test.ts: one delivery worker on the database of FD_DB (a SQLite file or a
 * PostgreSQL URL), sending through SMTP to FD_SMTP_URL with a short lease. The test kills it with SIGKILL
 * mid-batch.
 */
import { openPostgres } from '../../../server/db/postgres';
import { openSqlite } from '../../../server/db/sqlite';
import { smtpSender } from '../../../server/delivery/email/smtp';
import { createDeliveryWorker } from '../../../server/delivery/worker';

const location = process.env.FD_DB ?? '';
const db = location.startsWith('postgres') ? openPostgres({ connectionString: location, poolSize: 2 }) : openSqlite(location);
const worker = createDeliveryWorker({
  data: db,
  senders: { email: smtpSender({ url: process.env.FD_SMTP_URL ?? '', from: 'Front Door <no-reply@demo.test>' }) },
  leaseMs: Number(process.env.FD_LEASE_MS ?? 1500),
  batchSize: 10,
  owner: 'child',
});
process.stdout.write('ready\n');
await worker.runOnce();
process.stdout.write('done\n');
await worker.stop();
await db.close();

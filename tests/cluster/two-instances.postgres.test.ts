// The two-instance proofs (tests/cluster/two-instances.ts) on PostgreSQL: the server of DATABASE_URL (npm test starts one), a database of this file's own.
import { twoInstanceSuite } from './two-instances';

twoInstanceSuite('postgres');

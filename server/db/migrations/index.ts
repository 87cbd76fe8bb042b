/**
 * Every migration, in the order they run: one definition each for both engines (server/db/schema.ts).
 * A name is what schema_migrations records: databases migrated before the one source know them so,
 * hence the `.sql` of the files they were. A new one is `NNN_what.ts` here and `NNN_what.sql` below.
 */
import type { Migration } from '../schema.js';
import { up as init } from './001_init.js';
import { up as mfa } from './002_mfa.js';
import { up as accountFlows } from './003_account_flows.js';
import { up as hardening } from './004_hardening.js';
import { up as secondRound } from './005_second_round.js';
import { up as delivery } from './020_delivery.js';
import { up as sso } from './021_sso.js';
import { up as studio } from './030_studio.js';
import { up as passkeys } from './040_passkeys.js';
import { up as securityKeyPasskeys } from './041_security_key_passkeys.js';
import { up as studioReview } from './042_studio_review.js';
import { up as passkeysOwner } from './043_passkeys_owner.js';
import { up as operations } from './050_operations.js';
import { up as funnel } from './060_funnel.js';
import { up as funnelHourly } from './061_funnel_hourly.js';
import { up as rollout } from './062_rollout.js';

export const MIGRATIONS: readonly Migration[] = [
  { name: '001_init.sql', up: init },
  { name: '002_mfa.sql', up: mfa },
  { name: '003_account_flows.sql', up: accountFlows },
  { name: '004_hardening.sql', up: hardening },
  { name: '005_second_round.sql', up: secondRound },
  { name: '020_delivery.sql', up: delivery },
  { name: '021_sso.sql', up: sso },
  { name: '030_studio.sql', up: studio },
  { name: '040_passkeys.sql', up: passkeys },
  { name: '041_security_key_passkeys.sql', up: securityKeyPasskeys },
  { name: '042_studio_review.sql', up: studioReview },
  { name: '043_passkeys_owner.sql', up: passkeysOwner },
  { name: '050_operations.sql', up: operations },
  { name: '060_funnel.sql', up: funnel },
  { name: '061_funnel_hourly.sql', up: funnelHourly },
  { name: '062_rollout.sql', up: rollout },
];

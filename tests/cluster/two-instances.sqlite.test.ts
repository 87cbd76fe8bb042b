// The two-instance proofs (tests/cluster/two-instances.ts) on embedded SQLite: one WAL file shared by both processes.
import { twoInstanceSuite } from './two-instances';

twoInstanceSuite('sqlite');

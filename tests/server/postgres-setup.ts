/** Setup of the vitest project `postgres` (vitest.config.ts): each test file's PostgreSQL database is dropped after it. */
import { afterAll } from 'vitest';
import { disposeFileDatabase } from './test-database';

afterAll(disposeFileDatabase);

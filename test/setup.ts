/** Runs around every test file. */
import { afterAll } from 'vitest';
import { removeTrees } from './helpers/temp-tree.ts';

afterAll(() => {
  removeTrees();
});

/**
 * The whole run's global setup: a temporary folder that every test file of this run shares (see
 * test/helpers/shared-build.ts), named in `SYLLABUS_TEST_RUN_FOLDER` for the workers, which start
 * after it and inherit the environment. Removed when the run ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The variable that names the run's folder. */
export const RUN_FOLDER_VARIABLE = 'SYLLABUS_TEST_RUN_FOLDER';

/** Makes the run's folder (once, however many projects run this setup) and removes it at the end. */
export default function setup(): () => void {
  const existing = process.env[RUN_FOLDER_VARIABLE];
  if (existing !== undefined && fs.existsSync(existing)) return () => {};
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-test-run-'));
  process.env[RUN_FOLDER_VARIABLE] = folder;
  return () => {
    fs.rmSync(folder, { recursive: true, force: true });
    delete process.env[RUN_FOLDER_VARIABLE];
  };
}

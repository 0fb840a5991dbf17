/**
 * `--remote` gives the same answers as local files, for what no fixture case asks (the cases
 * themselves are compared with `--remote` by test/cli/fixtures.test.ts): each fixture's site is
 * asked `prompt --json` and `schema --tool` (with each profile too), for each topic its listing
 * under each profile and with `-k <topic>`, and `find` for each topic's id and title (in that
 * topic and in all, as JSON with the scores). Each question is asked of the endpoints of the
 * fixture's site served over HTTP (test/helpers/published-fixtures.ts) and of the fixture's files,
 * by the command line in this process (`main`, as the bin runs it); stdout, stderr and exit code
 * must be equal byte for byte. The first question of each command is also asked through the real
 * bin, which must answer exactly as `main` did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeFixtureCopies } from '../helpers/fixtures.ts';
import { closeSites, localArgs, publishFixtures, remoteArgs, serveSites, type Site } from '../helpers/published-fixtures.ts';
import { runCliAsync, runCliInProcess } from '../helpers/run-cli.ts';

const fixtures = await publishFixtures();

beforeAll(async () => {
  await serveSites(fixtures);
});

afterAll(async () => {
  await closeSites();
  removeFixtureCopies();
});

/** Questions no case asks, for every site: JSON output, the tool, profiles, and -k in learn. */
function derivedQuestions(site: Site): string[][] {
  const questions = [
    ['prompt', '--json'],
    ['schema', '--tool'],
  ];
  for (const profile of site.profiles) questions.push(['prompt', '--json', '--profile', profile], ['schema', '--tool', '--profile', profile]);
  for (const topic of site.topics) {
    questions.push(['learn', topic, '-k', topic]);
    for (const profile of site.profiles) questions.push(['learn', topic, '--profile', profile]);
    questions.push(['find', topic, '--json', '--limit', '50'], ['find', topic, '--topic', topic]);
  }
  for (const title of site.titles) questions.push(['find', title, '--json', '--limit', '50']);
  return questions;
}

it('asks questions of most fixtures', () => {
  expect(fixtures.filter((f) => f.sites.some((s) => s.skip === undefined)).length).toBeGreaterThan(20);
});

/** The commands whose first question (over all sites) already runs through the real bin. */
const throughBin = new Set<string>();

for (const fixture of fixtures) {
  for (const site of fixture.sites) {
    if (site.skip !== undefined) continue;
    describe(`${fixture.name}, ${site.configs.join(' + ')}: questions no case asks`, () => {
      for (const question of derivedQuestions(site)) {
        // The first question of each command also runs through the real bin, which must answer as `main` does.
        const alsoThroughBin = !throughBin.has(question[0]!);
        throughBin.add(question[0]!);
        it.concurrent(alsoThroughBin ? `${question.join(' ')} (also through the bin)` : question.join(' '), async () => {
          const [local, remote] = await Promise.all([
            runCliInProcess(localArgs(site, question), { cwd: fixture.cwd }),
            runCliInProcess(remoteArgs(site, question), { cwd: fixture.cwd }),
          ]);
          expect(local.code, `the local run should succeed; stderr:\n${local.stderr}`).toBe(0);
          expect({ exit: remote.code, stdout: remote.stdout, stderr: remote.stderr }).toEqual({ exit: 0, stdout: local.stdout, stderr: '' });
          if (alsoThroughBin) expect(await runCliAsync(remoteArgs(site, question), { cwd: fixture.cwd })).toEqual(remote);
        });
      }
    });
  }
}

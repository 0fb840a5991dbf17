/**
 * The catalog as the Astro pages read it: built once per build from the knowledge base that
 * `syllabus build` names in `SYLLABUS_CONFIG_FILES` (a JSON array of absolute paths).
 */
import { buildCatalog, hasConfigErrors, loadConfig, openKnowledgeBase, readConfigFiles, type Catalog, type SiteConfig } from '../kb/index.ts';

/** What every page needs. */
export interface SiteData {
  site: SiteConfig;
  catalog: Catalog;
}

let data: Promise<SiteData> | undefined;

/** Loads the site data once per build. */
export function loadSiteData(): Promise<SiteData> {
  data ??= (async () => {
    const files = JSON.parse(process.env['SYLLABUS_CONFIG_FILES'] ?? '["content/kb.toml"]') as string[];
    const read = readConfigFiles(files, process.cwd());
    const loaded = loadConfig(read.sources);
    if (!loaded.config || hasConfigErrors(read.diagnostics)) {
      throw new Error(`Syllabus: the configuration has errors; run "syllabus check" (${files.join(', ')}).`);
    }
    const kb = openKnowledgeBase(loaded.config);
    const { catalog } = await buildCatalog(kb);
    return { site: loaded.config.site, catalog };
  })();
  return data;
}

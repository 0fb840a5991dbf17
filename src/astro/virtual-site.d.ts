/** The virtual module through which Syllabus's pages read their site (see vite-plugin.ts and site-state.ts). */
declare module 'virtual:syllabus/site' {
  import type { SiteAccess } from './site-state.ts';

  /** The site data of the integration that added the page. */
  export const loadSite: SiteAccess['site'];
  /** The rendering of subject `id` (`<topic>/<slug>`). */
  export const renderingOf: SiteAccess['rendering'];
  /** The rendered description of topic `id`. */
  export const topicDescriptionOf: SiteAccess['topicDescription'];
  /** Code highlighted as the site highlights code blocks. */
  export const highlight: SiteAccess['highlight'];
  /** Tells the build a page is being made. */
  export const pageShown: () => void;
}

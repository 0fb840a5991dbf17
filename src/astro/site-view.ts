/**
 * What Syllabus's pages read: their site, each subject's rendering, a topic's description, code
 * highlighted as the site highlights it. Pages import this module, and the integration's Vite
 * plugin gives each page, in its place, a module bound to that integration's site (see
 * vite-plugin.ts): the bodies here run only where no integration is, and say so.
 */
import type { SiteAccess } from './site-state.ts';

const outsideIntegration = (): never => {
  throw new Error('Syllabus: its pages run only inside its Astro integration (syllabus-kb/astro), which gives them their site.');
};

/** The site data of the integration that added the page. */
export const loadSite: SiteAccess['site'] = outsideIntegration;
/** The rendering of subject `id` (`<topic>/<slug>`). */
export const renderingOf: SiteAccess['rendering'] = outsideIntegration;
/** The rendered description of topic `id`. */
export const topicDescriptionOf: SiteAccess['topicDescription'] = outsideIntegration;
/** Code highlighted as the site highlights code blocks. */
export const highlight: SiteAccess['highlight'] = outsideIntegration;
/** Tells the build a page is being made (it counts them). */
export const pageShown: () => void = outsideIntegration;

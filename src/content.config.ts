/** Collections of the site, loaded through the knowledge core (src/astro/loader.ts). */
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { subjectsLoader, topicsLoader } from './astro/loader.ts';

export const collections = {
  subjects: defineCollection({ loader: subjectsLoader(), schema: z.object({ topic: z.string(), slug: z.string() }) }),
  topics: defineCollection({ loader: topicsLoader(), schema: z.object({ id: z.string() }) }),
};

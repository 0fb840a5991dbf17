import type { Learning } from '../../src/kb/index.ts';

/** A valid learning as a store holds it (content/reference/cli/learnings.md): tests vary its fields. */
export const SAMPLE_LEARNING: Learning = {
  id: 'learn-lx2abc-def123',
  taskId: 'task-123',
  category: 'pattern',
  content: 'This project uses Zod schemas for all API validation',
  keywords: ['zod', 'schema', 'validation', 'api'],
  confidence: 0.75,
  usedCount: 5,
  successCount: 4,
  createdAt: '2024-01-10T08:00:00.000Z',
  lastUsedAt: '2024-01-14T15:30:00.000Z',
};

/**
 * Task lists (content/reference/subject-formats.md, "Task lists"): each item's checkbox, disabled
 * as GitHub shows it, is named by the item's own text, so that a screen reader says what is done
 * or not (a checkbox without a name is read as just "checkbox").
 */
import type { Element, ElementContent } from 'hast';
import type { HastPluginDefinition } from 'satteri';

/** The text of `nodes`, without nested lists (their items have checkboxes of their own). */
function ownText(nodes: readonly ElementContent[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'text') return node.value;
      if (node.type !== 'element' || node.tagName === 'ul' || node.tagName === 'ol') return '';
      return ownText(node.children);
    })
    .join('');
}

/** Whether `node` is an item of a task list. */
function isTaskItem(node: unknown): node is Element {
  if (typeof node !== 'object' || node === null || (node as Element).type !== 'element' || (node as Element).tagName !== 'li') return false;
  const classes = (node as Element).properties['className'];
  return Array.isArray(classes) && classes.includes('task-list-item');
}

/** The hast plugin that names each task list item's checkbox by the item's text. */
export function createTaskListPlugin(): HastPluginDefinition {
  return {
    name: 'syllabus-task-lists',
    element: {
      filter: ['input'],
      visit(node, ctx) {
        if (node.properties['type'] !== 'checkbox') return;
        // The checkbox is the item's own child, or its first paragraph's in a loose list.
        const parent = ctx.parent(node);
        const item = isTaskItem(parent) ? parent : parent?.type === 'element' && parent.tagName === 'p' ? ctx.parent(parent) : undefined;
        if (!isTaskItem(item)) return;
        const label = ownText(item.children).replace(/\s+/g, ' ').trim();
        if (label !== '') ctx.setProperty(node, 'ariaLabel', label);
      },
    },
  };
}

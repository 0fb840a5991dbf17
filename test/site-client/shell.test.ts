/** The theme control's states (src/site-client/shell.ts): each says the current theme and what a click does. */
import { describe, expect, it } from 'vitest';
import { NEXT_THEME, themeLabel } from '../../src/site-client/shell.ts';

describe('the theme control', () => {
  it('goes round system, light and dark, and says so', () => {
    expect(NEXT_THEME).toEqual({ system: 'light', light: 'dark', dark: 'system' });
    expect((['system', 'light', 'dark'] as const).map(themeLabel)).toEqual(['Theme: system. Switch to light', 'Theme: light. Switch to dark', 'Theme: dark. Switch to system']);
  });
});

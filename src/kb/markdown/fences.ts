/** Code fences of markdown, followed line by line without parsing the whole text. */

/**
 * A reader of a markdown text's lines in order: for each line, whether it is a fence line
 * (opening or closing a fenced code block) or inside a fenced block. A fence closes only with
 * the character that opened it, at least as many times (CommonMark).
 */
export function createFenceReader(): (line: string) => boolean {
  let fence: string | undefined;
  return (line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return true;
    }
    return fence !== undefined;
  };
}

/** A memo in memory (the catalog's, the search documents') that records what it was asked. */
export interface RecordingMemo<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  /** What it holds, by key. */
  entries: Map<string, T>;
  /** The keys asked for, in order. */
  gets: string[];
  /** The keys set, in order. */
  sets: string[];
}

/** An empty {@link RecordingMemo}. */
export function recordingMemo<T>(): RecordingMemo<T> {
  const entries = new Map<string, T>();
  const gets: string[] = [];
  const sets: string[] = [];
  return {
    entries,
    gets,
    sets,
    get(key) {
      gets.push(key);
      return entries.get(key);
    },
    set(key, value) {
      sets.push(key);
      entries.set(key, value);
    },
  };
}

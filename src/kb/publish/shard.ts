/** Spreading keys over a fixed number of shards. */

/** The shard of `key` among `shards`: a stable hash (FNV-1a) of its characters. */
export function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash % shards;
}

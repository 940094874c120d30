// Conversation ids name folders under .agentero/chats, so they hold only
// letters, digits, '.', '_' and '-' and stay under 128 characters. A sidebar
// thread is one per paper ("paper.<ref>"), Quick Chat threads are numbered
// ("quick.<n>").

const MaxId = 120;

/** paperConversationId is the sidebar thread of a paper ref: "/" becomes "_", other odd characters "-". */
export function paperConversationId(ref: string): string {
  const clean = ref.replace(/\//g, "_").replace(/[^A-Za-z0-9._-]/g, "-").replace(/\.{2,}/g, ".");
  const id = `paper.${clean}`;
  if (id.length <= MaxId && clean === ref.replace(/\//g, "_")) return id;
  // Cleaning or cutting can make two refs collide: a hash of the ref keeps them apart.
  return `${id.slice(0, MaxId - 9)}-${hash(ref)}`;
}

export function quickConversationId(n: number): string {
  return `quick.${Math.max(1, Math.trunc(n))}`;
}

// hash is FNV-1a (32 bit), in hex.
function hash(s: string): string {
  let h = 0x811c9dc5;
  for (const ch of new TextEncoder().encode(s)) {
    h ^= ch;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

// Slash commands in the composer (SPEC §8.4): "/" lists Agentero's own —
// /compact (compact the history now, and say what was kept) and /clear (a
// new session with an empty history; the transcript keeps every turn) —
// and the commands the conversation's agent advertises, which are sent to
// it as the prompt.

import type { CompactionResult, SlashCommand } from "../lib/backend";
import { turnRanges } from "../agentview/summary";

export interface SlashBackend {
  slashCommands(conversationId: string): Promise<SlashCommand[]>;
  compactConversation(conversationId: string): Promise<CompactionResult>;
  clearConversation(conversationId: string): Promise<void>;
}

/** Before any turn, the commands Agentero offers itself. */
const ownCommands: SlashCommand[] = [
  { name: "compact", description: "Compact the conversation now", builtin: true },
  { name: "clear", description: "Start over with an empty history (the transcript keeps every turn)", builtin: true },
];

/** compactedText says what /compact kept. */
export function compactedText(r: CompactionResult): string {
  const parts: string[] = [];
  if (r.whole.length) parts.push(`turns ${turnRanges(r.whole)} whole`);
  if (r.pruned.length) parts.push(`${turnRanges(r.pruned)} as placeholders`);
  if (r.summarized.length) parts.push(`${turnRanges(r.summarized)} in the summary`);
  const kept = parts.length ? parts.join(", ") : "nothing yet";
  const tiers = r.tiers.length ? ` (${r.tiers.join(", ")})` : " (it already fit: nothing was cut)";
  return `Compacted${tiers}: kept ${kept}; about ${r.tokensAfter.toLocaleString("en-US")} of ${r.window.toLocaleString("en-US")} tokens. The next turn starts a new session handed this; the transcript is unchanged.`;
}

/** slashDeps wires a composer's commands to a conversation (null: none open). */
export function slashDeps(backend: SlashBackend | undefined, conversationId: () => string | null) {
  if (!backend) return {};
  return {
    async commands(): Promise<SlashCommand[]> {
      const id = conversationId();
      if (!id) return ownCommands;
      try {
        return await backend.slashCommands(id);
      } catch {
        return ownCommands; // a conversation not started yet
      }
    },
    async runCommand(name: string): Promise<string> {
      const id = conversationId();
      if (!id) throw new Error("Open a conversation first.");
      if (name === "compact") return compactedText(await backend.compactConversation(id));
      if (name === "clear") {
        await backend.clearConversation(id);
        return "Cleared: the next turn starts a new session with an empty history. The transcript keeps every turn.";
      }
      throw new Error(`/${name} is not one of Agentero’s commands.`);
    },
  };
}

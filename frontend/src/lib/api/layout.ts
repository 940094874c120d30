import * as App from "../../../wailsjs/go/main/App";
import type { conversation, workspace } from "../../../wailsjs/go/models";
import { type Data, type Wire, asGo } from "../wire";

// --- conversations and the window's layout ------------------------------------------

/** ConversationSummary is a stored conversation as the conversations panel lists it. */
export type ConversationSummary = Required<Data<conversation.Summary>>;

function summary(s: Wire<conversation.Summary>): ConversationSummary {
  return { ...s, paper: s.paper ?? "", match: s.match ?? "" };
}

/** conversations lists the vault's conversations, newest first; a query keeps those whose title or messages hold every word. */
export async function conversations(query = ""): Promise<ConversationSummary[]> {
  const list: Wire<conversation.Summary>[] = (await App.Conversations(query)) ?? [];
  return list.map(summary);
}

/** renameConversation titles a conversation ("" = its first question again). */
export async function renameConversation(id: string, title: string): Promise<ConversationSummary> {
  return summary(await App.RenameConversation(id, title));
}

/** deleteConversation removes a conversation and its transcript from disk. */
export async function deleteConversation(id: string): Promise<void> {
  await App.DeleteConversation(id);
}

export type Layout = Data<workspace.Layout>;

export async function layout(): Promise<Layout> {
  const l: Wire<workspace.Layout> = await App.Layout();
  return { sizes: l?.sizes ?? {}, collapsed: l?.collapsed ?? {} };
}

export async function saveLayout(l: Layout): Promise<void> {
  await App.SaveLayout(asGo<workspace.Layout>(l));
}

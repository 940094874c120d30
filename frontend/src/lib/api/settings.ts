import * as App from "../../../wailsjs/go/main/App";
import type { grant, settings as settingsModels } from "../../../wailsjs/go/models";
import { type Data, asGo } from "../wire";

// --- settings -------------------------------------------------------------------

/**
 * ReadingBudget caps what the agentero-context tools return in a turn (SPEC
 * §3, the plan's budget): cards per context_search call, of those at most
 * cardsPerPaper from one paper or file, excerptChars for a snippet or an
 * excerpt, fullChars for one page, section, file or full read, dirEntries
 * names in one listing, turnChars for everything in one turn.
 */
export type ReadingBudget = Data<grant.Budget>;
export type AppSettings = Data<settingsModels.Settings>;

/** settings reads the user's settings (the tools' reading budget). */
export async function settings(): Promise<AppSettings> {
  return App.Settings();
}

/** defaultSettings is what a fresh install uses. */
export async function defaultSettings(): Promise<AppSettings> {
  return App.DefaultSettings();
}

/** saveSettings stores the settings; it rejects a budget value that is not positive or over its limit. */
export async function saveSettings(s: AppSettings): Promise<void> {
  await App.SaveSettings(asGo<settingsModels.Settings>(s));
}

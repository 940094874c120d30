// Light or dark: follows the system unless the user chose one in settings.
// The choice is kept in localStorage and applied as <html data-theme>.

export type ThemeChoice = "system" | "light" | "dark";

const Key = "agentero.theme";

export function parseTheme(value: string | null): ThemeChoice {
  return value === "light" || value === "dark" ? value : "system";
}

/** resolveTheme is the theme to show for a choice, given whether the system prefers dark. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): "light" | "dark" {
  if (choice === "system") return systemDark ? "dark" : "light";
  return choice;
}

export function loadTheme(): ThemeChoice {
  try {
    return parseTheme(localStorage.getItem(Key));
  } catch {
    return "system";
  }
}

/** applyTheme sets the theme now, remembers the choice, and follows system changes while the choice is "system". */
export function applyTheme(choice: ThemeChoice): void {
  try {
    localStorage.setItem(Key, choice);
  } catch {
    // Private mode or storage off: the choice lasts for this session.
  }
  current = choice;
  paint();
}

let current: ThemeChoice = "system";
const media = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;

function paint(): void {
  const root = document.documentElement;
  root.dataset.theme = resolveTheme(current, media?.matches ?? false);
  root.dataset.themeChoice = current;
}

/** startTheme applies the saved choice and starts following the system. */
export function startTheme(): void {
  current = loadTheme();
  paint();
  media?.addEventListener("change", paint);
}

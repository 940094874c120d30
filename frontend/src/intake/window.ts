// The window's intake: the Add / import bar wired to the backend, and PDFs
// dropped anywhere on the window handed to it. main.ts mounts it; the drop
// test runs the same code against stubbed Wails ends.

import * as backend from "../lib/backend";
import { mountIntake, type IntakeDeps, type IntakeView } from "./view";

/** backendIntake is what the intake view calls: the backend's intake methods, and opened when a folder became the vault. */
export function backendIntake(opened: () => void): IntakeDeps {
  return {
    addPapers: backend.addPapers,
    addPaths: backend.addPaths,
    importZotero: backend.importZotero,
    importBibliography: backend.importBibliography,
    importZoteroWithBase: backend.importZoteroWithBase,
    planArrangement: backend.planArrangement,
    applyArrangement: backend.applyArrangement,
    openFolder: backend.openFolder,
    opened,
    settings: backend.settings,
    saveSettings: backend.saveSettings,
  };
}

/** mountWindowIntake mounts the intake bar (and its dialogs) on the backend. */
export function mountWindowIntake(bar: HTMLElement, dialogs: HTMLElement, opened: () => void): IntakeView {
  return mountIntake(bar, dialogs, backendIntake(opened));
}

/** takeDrops hands the paths of files dropped on the window to the intake, which asks what it must and adds them. */
export function takeDrops(intake: Pick<IntakeView, "addPaths">): void {
  backend.onFileDrop((paths) => intake.addPaths(paths));
}

// Zoom steps, in percent of the page's printed size.

export const ZoomSteps = [25, 33, 50, 67, 75, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300, 400];

/** nextZoom is the step after percent in the given direction, clamped to the ends. */
export function nextZoom(percent: number, direction: "in" | "out"): number {
  if (direction === "in") {
    return ZoomSteps.find((z) => z > percent + 0.5) ?? ZoomSteps[ZoomSteps.length - 1];
  }
  return [...ZoomSteps].reverse().find((z) => z < percent - 0.5) ?? ZoomSteps[0];
}

/** clampZoom keeps a computed zoom (e.g. fit width) within the steps' range. */
export function clampZoom(percent: number): number {
  return Math.min(ZoomSteps[ZoomSteps.length - 1], Math.max(ZoomSteps[0], percent));
}

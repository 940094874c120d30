// Types for answers.mjs (the project compiles TypeScript only).

/** sampleAnswer is a well-formed answer and, per selector, how many elements it renders. */
export declare const sampleAnswer: { text: string; expect: Record<string, number> };

/** Sentinel is the global every payload tries to set. */
export declare const Sentinel: "__agenteroPwned";

/** SentinelScript is the JavaScript every payload runs: it sets the sentinel. */
export declare const SentinelScript: string;

/** hostileAnswers is the corpus of answers that must render inert. */
export declare const hostileAnswers: { name: string; text: string }[];

/** inertProblems lists what is live under root (an element or a selector); [] when it is inert. */
export declare function inertProblems(rootOrSelector: Element | string): string[];

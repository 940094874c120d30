// The line under an agent that says how Test connection (or Save's check)
// is going: a clock against its deadline and a Cancel button while it runs,
// then what it found or why it failed, in the backend's words.

import { failure, type AgentReport, type Failure } from "../lib/backend";
import { h } from "../lib/dom";
import { abilities, agentWho, loginText, TestSeconds } from "./agents";

export interface CheckLine {
  el: HTMLElement;
  /**
   * run shows label with a clock against TestSeconds and a Cancel button
   * (which calls cancel) until work settles; it resolves to work's result,
   * or to the failure it rejected with.
   */
  run<T>(label: string, work: () => Promise<T>, cancel: () => void): Promise<{ ok: T } | { failed: Failure }>;
  /** report shows what Test connection found. */
  report(r: AgentReport): void;
  /** problem shows why something failed, with anything to do about it. */
  problem(text: string, ...actions: HTMLElement[]): void;
  clear(): void;
}

export function createCheckLine(testid: string): CheckLine {
  const el = h("div", { class: "agent-test", role: "status", "data-testid": testid });
  let runs = 0;

  function set(tone: string, ...children: (Node | string)[]) {
    el.className = `agent-test ${tone}`;
    el.replaceChildren(...children);
  }

  return {
    el,
    async run(label, work, cancel) {
      const run = ++runs;
      const started = Date.now();
      const clock = h("span", { class: "check-clock", "data-testid": "check-clock" });
      const bar = h("progress", { class: "check-deadline", max: TestSeconds, value: 0, "aria-label": `Gives up after ${TestSeconds} s` });
      const stop = h("button", { type: "button", class: "quiet", "data-testid": "check-cancel", onClick: () => cancel() }, "Cancel");
      const tick = () => {
        const s = Math.min(TestSeconds, Math.floor((Date.now() - started) / 1000));
        clock.textContent = `${s} s of at most ${TestSeconds} s`;
        bar.value = s;
      };
      tick();
      const timer = setInterval(tick, 1000);
      set("busy", h("span", {}, `${label}… `), clock, bar, stop);
      try {
        return { ok: await work() };
      } catch (err) {
        return { failed: failure(err) };
      } finally {
        clearInterval(timer);
        if (run === runs) set("");
      }
    },
    report(r) {
      set(
        "ok",
        h("strong", { "data-testid": "check-who" }, `Connected to ${agentWho(r)}`),
        ` in ${r.seconds.toFixed(1)} s.`,
        h(
          "ul",
          { class: "check-abilities", "aria-label": "What it can do", "data-testid": "check-abilities" },
          ...abilities(r.capabilities).map((a) =>
            h("li", { class: a.can ? "can" : "cannot", title: a.why, "data-can": a.can ? "true" : "false" }, `${a.can ? "✓" : "✗"} ${a.label}`),
          ),
        ),
        r.capabilities.mcpStdio ? "" : h("p", { class: "check-warning" }, "It cannot start MCP servers over stdio, so it cannot read your vault: it answers from the prompt alone."),
        r.authMethods.length
          ? h("p", { class: "check-auth", "data-testid": "check-auth" }, "Log in: ", r.authMethods.map(loginText).join("; "), ".")
          : h("p", { class: "check-auth", "data-testid": "check-auth" }, "It needs no login."),
      );
    },
    problem(text, ...actions) {
      set("error", h("span", { "data-testid": "check-problem" }, text), ...actions);
      el.scrollIntoView?.({ block: "nearest" }); // below a long form, the reason is shown, not left under the fold
    },
    clear() {
      runs++;
      set("");
    },
  };
}

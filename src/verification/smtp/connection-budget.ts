/**
 * Throttling per provider and per egress address: every new SMTP connection takes one token from
 * the budget of (provider profile, egress identity) before it connects. The budget is smooth: no
 * interval of a window's length (a minute: the profile's `connectionsPerMinute`), wherever it
 * starts, sees more than `perWindow` tokens taken, and they come evenly spread over the window
 * rather than all at its start (a provider sees a steady pace, never twice the budget across a
 * window boundary). A provider's "slow down" reply (its profile's `slowDown` patterns) cuts that
 * budget for a cool-down period: each connection then costs more, and the cut ends by itself.
 * Storage implements the budget in-process (embedded) or in Redis (every process of a scale-out
 * deployment shares one budget per provider and egress). The bound holds for the moments tokens
 * are taken; a connection reaches the provider its connect time later.
 */
export interface ConnectionBudget {
  /**
   * One connection from `key`'s budget of `perWindow` in any window-long interval. Waits for the
   * next token when none is free now and the deadline allows; false when the deadline comes first.
   * `wanted`, asked each time a token could be taken after a wait: false gives up without taking
   * it (what the connection was for is gone meanwhile: the token stays for another).
   * `onWait`, told each time it waits: the earliest moment a token could come (no sooner: a
   * caller whose own time ends before it can stop waiting at once).
   */
  take(key: BudgetKey, perWindow: number, deadline: number, wanted?: () => boolean, onWait?: (nextAt: number) => void): Promise<boolean>;
  /** The provider asked `key` to slow down: its connections cost more until the cool-down ends. */
  slowDown(key: BudgetKey): Promise<void>;
  /** Whether `key` is cooling down after a slow-down reply (tests, doctor). */
  coolingDown(key: BudgetKey): Promise<boolean>;
}

export interface BudgetKey {
  /** Provider profile id. */
  provider: string;
  /** `direct`, or the proxy URL without credentials (socks5://host:port). */
  egress: string;
}

export interface BudgetTuning {
  /** The interval `perWindow` bounds, in whole seconds (default 60: connections per minute). */
  windowSeconds: number;
  /** How long a slow-down reply cuts the budget, in whole seconds (default 300). */
  coolDownSeconds: number;
  /** What one connection costs while cooling down (default 4: a quarter of the budget, at least one connection a window). */
  slowDownCost: number;
}

export const DEFAULT_BUDGET_TUNING: BudgetTuning = { windowSeconds: 60, coolDownSeconds: 300, slowDownCost: 4 };

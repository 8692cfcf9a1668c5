import { ApiError } from '@/lib/http/errors';

/**
 * A resource's lifecycle as data: its states and, per state, the states it may move to.
 * Domain code writes a status only through `assertTransition` (in memory) or `sourcesOf`
 * (a guarded `UPDATE … WHERE status IN (…)`), so the table below is the whole machine.
 */
export interface StateMachine<S extends string> {
  readonly resource: string;
  readonly initial: readonly S[];
  readonly transitions: Readonly<Record<S, readonly S[]>>;
  readonly states: readonly S[];
  canTransition(from: S, to: S): boolean;
  /** Throws 409 INVALID_STATE (with `state` and `requested` in the problem) unless `from → to` is allowed. */
  assertTransition(from: S, to: S, subject: string, why?: string): void;
  /** Every state that may move to `to`: the `status IN (…)` guard of a compare-and-set UPDATE. */
  sourcesOf(to: S): S[];
  isFinal(state: S): boolean;
  /** A Mermaid `stateDiagram-v2` of the table, for docs/state-machines.md. */
  toMermaid(): string;
}

export interface StateMachineDefinition<S extends string> {
  /** The noun used in messages, e.g. "payment link". */
  resource: string;
  /** The states a new row may be written with. */
  initial: readonly NoInfer<S>[];
  transitions: Record<S, readonly NoInfer<S>[]>;
}

export function defineStateMachine<const S extends string>(definition: StateMachineDefinition<S>): StateMachine<S> {
  const { resource, initial, transitions } = definition;
  const states = Object.keys(transitions) as S[];
  for (const [from, targets] of Object.entries(transitions) as [S, readonly S[]][]) {
    for (const to of targets) {
      if (!(to in transitions)) throw new Error(`${resource}: ${from} → ${to} names an undeclared state`);
    }
  }
  const canTransition = (from: S, to: S) => transitions[from]?.includes(to) ?? false;
  return {
    resource,
    initial,
    transitions,
    states,
    canTransition,
    assertTransition(from, to, subject, why) {
      if (canTransition(from, to)) return;
      const reason = why ?? `a ${resource} that is ${from} cannot become ${to}`;
      throw new ApiError('INVALID_STATE', `${subject}: ${reason}.`, { extra: { state: from, requested: to } });
    },
    sourcesOf(to) {
      return states.filter((from) => canTransition(from, to));
    },
    isFinal(state) {
      return transitions[state].length === 0;
    },
    toMermaid() {
      const lines = ['stateDiagram-v2'];
      for (const state of initial) lines.push(`  [*] --> ${state}`);
      for (const from of states) {
        for (const to of transitions[from]) lines.push(`  ${from} --> ${to}`);
        if (transitions[from].length === 0) lines.push(`  ${from} --> [*]`);
      }
      return lines.join('\n');
    },
  };
}

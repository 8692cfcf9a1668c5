import { ApiError } from '@/lib/errors';

/**
 * A resource's lifecycle as data: its states and, per state, the states it may move to.
 * Domain code writes a status only through the machine: `start` for a new row, `assertTransition`
 * (in memory, on a locked or fresh row) or `sourcesOf` (the `status IN (…)` guard of a
 * compare-and-set UPDATE), so the table is the whole machine (docs/state-machines.md).
 */
export interface StateMachine<S extends string, D extends S = never> {
  readonly resource: string;
  readonly initial: readonly Exclude<S, D>[];
  readonly transitions: Readonly<Record<S, readonly S[]>>;
  readonly states: readonly S[];
  /** States computed when a row is read (a link past its expiry), never written. */
  readonly derived: readonly D[];
  /** What causes a transition, by `"from -> to"`: the labels of the diagram. */
  readonly labels: Readonly<Partial<Record<string, string>>>;
  /** A paragraph for docs/state-machines.md. */
  readonly notes?: string;
  canTransition(from: S, to: S): boolean;
  /**
   * Throws 409 INVALID_STATE (with `state` and `requested` in the problem) unless `from → to` is
   * allowed. With `only`, the step the caller performs starts from fewer states than the table
   * allows (Enable moves a disabled link, not a completed one): `from` must be one of them, and
   * each of them must be allowed to move to `to` (a missing pair is a programming error).
   */
  assertTransition(from: S, to: S, subject: string, why?: string, only?: readonly S[]): void;
  /**
   * The one 409 INVALID_STATE of an illegal transition: `from` is undefined when a guarded UPDATE
   * matched no row and the state it found is not known. Detail: "`subject`: `why`."
   */
  refusal(from: S | undefined, to: S, subject: string, why?: string): ApiError;
  /** Throws 409 INVALID_STATE when `state` is final: a row in a final state takes no more changes. */
  assertNotFinal(state: S, subject: string, why?: string): void;
  /**
   * Every written state that may move to `to`: the `status IN (…)` guard of a compare-and-set
   * UPDATE. With `only`, the step the caller performs is narrower: `only` is returned after
   * checking that each of its states may move to `to` (a missing pair is a programming error).
   */
  sourcesOf(to: Exclude<S, D>, only?: readonly Exclude<S, D>[]): Exclude<S, D>[];
  /** The status of a new row: an initial state (anything else is a programming error). */
  start<T extends Exclude<S, D>>(state: T): T;
  isFinal(state: S): boolean;
  /** A Mermaid `stateDiagram-v2` of the table, for docs/state-machines.md. */
  toMermaid(): string;
}

export interface StateMachineDefinition<S extends string, D extends S = never> {
  /** The noun used in messages, e.g. "payment link". */
  resource: string;
  /** The states a new row may be written with. */
  initial: readonly NoInfer<Exclude<S, D>>[];
  transitions: Record<S, readonly NoInfer<S>[]>;
  /** States derived when a row is read, never stored (they never appear in a write guard). */
  derived?: readonly D[];
  /** What causes each transition, keyed `"from -> to"` (shown on the diagram's arrows). */
  labels?: Partial<Record<`${NoInfer<S>} -> ${NoInfer<S>}`, string>>;
  notes?: string;
}

export function defineStateMachine<const S extends string, const D extends S = never>(definition: StateMachineDefinition<S, D>): StateMachine<S, D> {
  const { resource, initial, transitions, notes } = definition;
  const derived: readonly D[] = definition.derived ?? [];
  const labels: Partial<Record<string, string>> = definition.labels ?? {};
  type Written = Exclude<S, D>;
  const states = Object.keys(transitions) as S[];
  for (const [from, targets] of Object.entries(transitions) as [S, readonly S[]][]) {
    for (const to of targets) {
      if (!(to in transitions)) throw new Error(`${resource}: ${from} → ${to} names an undeclared state`);
    }
  }
  for (const state of [...initial, ...derived]) {
    if (!(state in transitions)) throw new Error(`${resource}: ${state} is not a declared state`);
  }
  for (const state of initial) {
    if ((derived as readonly string[]).includes(state)) throw new Error(`${resource}: ${state} is derived, so no row is written with it`);
  }
  const canTransition = (from: S, to: S) => transitions[from]?.includes(to) ?? false;
  for (const edge of Object.keys(labels)) {
    const [from, to] = edge.split(' -> ') as [S, S];
    if (!canTransition(from, to)) throw new Error(`${resource}: the label of ${edge} names no transition`);
  }
  const isDerived = (state: S): state is D => (derived as readonly S[]).includes(state);
  const refusal = (from: S | undefined, to: S, subject: string, why?: string) => {
    const reason =
      why ??
      (from === undefined
        ? `a ${resource} becomes ${to} only from ${sourcesOf(to as Written).join(' or ')}`
        : `a ${resource} that is ${from} cannot become ${to}`);
    const extra = from === undefined ? { requested: to } : { state: from, requested: to };
    return new ApiError('INVALID_STATE', `${subject}: ${reason}.`, { extra });
  };
  const checkStep = (only: readonly S[], to: S) => {
    for (const from of only) {
      if (!canTransition(from, to)) throw new Error(`${resource}: ${from} → ${to} is not in the transition table`);
    }
  };
  const sourcesOf = (to: Written, only?: readonly Written[]): Written[] => {
    if (!only) return states.filter((from): from is Written => !isDerived(from) && canTransition(from, to));
    checkStep(only, to);
    return [...only];
  };
  const isFinal = (state: S) => transitions[state].length === 0;
  return {
    resource,
    initial,
    transitions,
    states,
    derived,
    labels,
    notes,
    canTransition,
    assertTransition(from, to, subject, why, only) {
      if (only) checkStep(only, to);
      if (!canTransition(from, to) || (only && !only.includes(from))) throw refusal(from, to, subject, why);
    },
    refusal,
    assertNotFinal(state, subject, why) {
      if (!isFinal(state)) return;
      throw new ApiError('INVALID_STATE', `${subject}: ${why ?? `a ${resource} that is ${state} takes no more changes`}.`, { extra: { state } });
    },
    sourcesOf,
    start(state) {
      if (!(initial as readonly string[]).includes(state)) throw new Error(`${resource}: a new row cannot start ${state}`);
      return state;
    },
    isFinal,
    toMermaid() {
      const lines = ['stateDiagram-v2'];
      for (const state of initial) lines.push(`  [*] --> ${state}`);
      for (const from of states) {
        for (const to of transitions[from]) {
          const label = labels[`${from} -> ${to}`];
          lines.push(label ? `  ${from} --> ${to}: ${label}` : `  ${from} --> ${to}`);
        }
        if (transitions[from].length === 0) lines.push(`  ${from} --> [*]`);
      }
      if (derived.length > 0) {
        lines.push('  classDef derived stroke-dasharray: 4 4');
        lines.push(`  class ${derived.join(',')} derived`);
      }
      return lines.join('\n');
    },
  };
}

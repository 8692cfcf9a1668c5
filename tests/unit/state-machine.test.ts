import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors';
import { defineStateMachine } from '@/lib/state-machine';

const door = defineStateMachine({
  resource: 'door',
  initial: ['closed'],
  transitions: { closed: ['open', 'locked'], open: ['closed'], locked: ['closed'], removed: [] },
});

describe('defineStateMachine', () => {
  it('allows exactly the listed transitions', () => {
    expect(door.canTransition('closed', 'open')).toBe(true);
    expect(door.canTransition('open', 'locked')).toBe(false);
    expect(door.sourcesOf('closed')).toEqual(['open', 'locked']);
    expect(door.isFinal('removed')).toBe(true);
    expect(door.isFinal('open')).toBe(false);
  });

  it('refuses an illegal transition with 409 INVALID_STATE naming both states', () => {
    let error: unknown;
    try {
      door.assertTransition('open', 'locked', 'Door d_1');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'INVALID_STATE', detail: 'Door d_1: a door that is open cannot become locked.' });
    expect((error as ApiError).options.extra).toEqual({ state: 'open', requested: 'locked' });
  });

  it('rejects a table naming an undeclared state', () => {
    expect(() => defineStateMachine({ resource: 'x', initial: ['a'], transitions: { a: ['b' as 'a'] } })).toThrow('a → b names an undeclared state');
  });

  it('draws the table as a Mermaid state diagram', () => {
    expect(door.toMermaid()).toBe(
      ['stateDiagram-v2', '  [*] --> closed', '  closed --> open', '  closed --> locked', '  open --> closed', '  locked --> closed', '  removed --> [*]'].join(
        '\n',
      ),
    );
  });

  it('narrows a step to fewer sources than the table, and checks them against it', () => {
    expect(door.sourcesOf('closed', ['open'])).toEqual(['open']);
    expect(() => door.sourcesOf('locked', ['open'])).toThrow('open → locked is not in the transition table');
    expect(() => door.assertTransition('locked', 'closed', 'Door d_1', undefined, ['open'])).toThrow(ApiError);
    expect(() => door.assertTransition('open', 'closed', 'Door d_1', undefined, ['open'])).not.toThrow();
  });

  it('starts new rows only in an initial state', () => {
    expect(door.start('closed')).toBe('closed');
    expect(() => door.start('open' as 'closed')).toThrow('a new row cannot start open');
  });

  it('refuses a guarded update that matched nothing, and any change to a row in a final state', () => {
    const refusal = door.refusal(undefined, 'closed', 'Door d_1');
    expect(refusal).toMatchObject({ code: 'INVALID_STATE', detail: 'Door d_1: a door becomes closed only from open or locked.' });
    expect(refusal.options.extra).toEqual({ requested: 'closed' });
    expect(() => door.assertNotFinal('removed', 'Door d_1')).toThrow('Door d_1: a door that is removed takes no more changes.');
    expect(() => door.assertNotFinal('open', 'Door d_1')).not.toThrow();
  });

  it('keeps derived states out of write guards and new rows, labels arrows and dashes derived states', () => {
    const link = defineStateMachine({
      resource: 'link',
      initial: ['active'],
      transitions: { active: ['expired', 'archived'], expired: ['archived'], archived: [] },
      derived: ['expired'],
      labels: { 'active -> expired': 'time passes' },
    });
    expect(link.sourcesOf('archived')).toEqual(['active']);
    expect(link.canTransition('expired', 'archived')).toBe(true);
    expect(link.toMermaid()).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> active',
        '  active --> expired: time passes',
        '  active --> archived',
        '  expired --> archived',
        '  archived --> [*]',
        '  classDef derived stroke-dasharray: 4 4',
        '  class expired derived',
      ].join('\n'),
    );
    expect(() => defineStateMachine({ resource: 'x', initial: ['a'], transitions: { a: [], b: [] }, labels: { 'a -> b': 'never' } })).toThrow(
      'the label of a -> b names no transition',
    );
  });
});

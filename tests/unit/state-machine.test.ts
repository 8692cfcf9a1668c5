import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/http/errors';
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
    expect(error).toMatchObject({ status: 409, code: 'INVALID_STATE', detail: 'Door d_1: a door that is open cannot become locked.' });
    expect((error as ApiError).options.extra).toEqual({ state: 'open', requested: 'locked' });
  });

  it('rejects a table naming an undeclared state', () => {
    expect(() => defineStateMachine({ resource: 'x', initial: ['a'], transitions: { a: ['b' as 'a'] } })).toThrow('a → b names an undeclared state');
  });

  it('draws the table as a Mermaid state diagram', () => {
    expect(door.toMermaid()).toBe(
      ['stateDiagram-v2', '  [*] --> closed', '  closed --> open', '  closed --> locked', '  open --> closed', '  locked --> closed', '  removed --> [*]'].join('\n'),
    );
  });
});

import { DeliveryQueue } from '../../../src/application/webhook/delivery/delivery-queue.port';
import { OutboxRelay } from '../../../src/application/webhook/relay/outbox-relay';
import { OutboxSignal } from '../../../src/application/webhook/relay/outbox-signal.port';
import { RelayOutbox } from '../../../src/application/webhook/relay/relay-outbox.use-case';
import type { Logger } from '../../../src/application/shared/logger.port';
import { RelayLoop } from '../../../src/interfaces/worker/relay.loop';
import { FixedClock } from '../../support/fakes/fixed-clock';

// Where the relay reads the outbox from (relay.loop.ts): the lowest event id the wake-ups named
// since its last round, the whole outbox on its poll, on a wake-up that names none and at start.
// The store and the signal are fakes of their ports; the SQL that reads from an id is tested
// against PostgreSQL (test/integration/relay-floor.test.ts).

type Round = { events: number; more: boolean; through?: string };

/** Answers rounds from a script (then empty ones) and records where each read from; a round can be held open. */
class ScriptedStore extends OutboxRelay {
  readonly froms: (string | null)[] = [];
  private readonly waiters: { done: (froms: (string | null)[]) => boolean; resolve: () => void }[] = [];
  private gate?: Promise<void>;
  constructor(private readonly script: Round[] = []) {
    super();
  }
  hold(): () => void {
    let open!: () => void;
    this.gate = new Promise((resolve) => (open = resolve));
    return () => {
      this.gate = undefined;
      open();
    };
  }
  /** Resolves once `count` rounds have been asked for. */
  rounds(count: number): Promise<void> {
    return this.until((froms) => froms.length >= count);
  }
  /** Resolves once the rounds asked for so far satisfy `done`. */
  until(done: (froms: (string | null)[]) => boolean): Promise<void> {
    if (done(this.froms)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ done, resolve }));
  }
  async fanOut(_limit: number, _now: Date, from: string | null = null) {
    this.froms.push(from);
    for (const w of this.waiters.filter((w) => w.done(this.froms))) w.resolve();
    if (this.gate) await this.gate;
    const round = this.script.shift() ?? { events: 0, more: false };
    return { ...round, deliveries: [] };
  }
  async takeRequested() {
    return [];
  }
}

class NoQueue extends DeliveryQueue {
  async enqueue(): Promise<void> {}
  async waitingSince(): Promise<Date | null> {
    return null;
  }
}

class HandSignal extends OutboxSignal {
  send: (from: string | null) => void = () => undefined;
  async listen(onSignal: (from: string | null) => void): Promise<void> {
    this.send = onSignal;
  }
  async close(): Promise<void> {}
}

const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, trace: () => undefined };

async function started(store: ScriptedStore, pollMs = 60_000, lanes = 1) {
  const signal = new HandSignal();
  const loop = new RelayLoop(new RelayOutbox(store, new NoQueue(), new FixedClock(new Date('2026-11-29T00:00:00Z'))), signal, quiet, { pollMs, batch: 200, lanes });
  await loop.start();
  return { loop, signal };
}

describe('RelayLoop: where a round reads the outbox from', () => {
  let loop: RelayLoop | undefined;
  afterEach(async () => {
    await loop?.stop();
    loop = undefined;
  });

  /** Where the rounds read from when `wakeUps` arrive while the first round (at start) runs. */
  async function whileTheFirstRoundRuns(wakeUps: (string | null)[]): Promise<(string | null)[]> {
    const store = new ScriptedStore();
    const open = store.hold();
    const run = await started(store);
    loop = run.loop;
    await store.rounds(1);
    for (const from of wakeUps) run.signal.send(from);
    open();
    await store.rounds(2);
    await loop.idle();
    return store.froms;
  }

  it('reads all of it at start, then from the lowest id the wake-ups named while a round ran', async () => {
    const froms = await whileTheFirstRoundRuns(['evt_01kb0000000000000000000003', 'evt_01kb0000000000000000000001', 'evt_01kb0000000000000000000002']);
    expect(froms).toEqual([null, 'evt_01kb0000000000000000000001']);
  });

  it('reads all of it when one of the wake-ups named no id', async () => {
    const froms = await whileTheFirstRoundRuns(['evt_01kb0000000000000000000001', null, 'evt_01kb0000000000000000000002']);
    expect(froms).toEqual([null, null]);
  });

  it('reads the next batch from where the last one ended', async () => {
    const store = new ScriptedStore([
      { events: 1, more: false },
      { events: 200, more: true, through: 'evt_01kb0000000000000000000200' },
      { events: 5, more: false, through: 'evt_01kb0000000000000000000205' },
    ]);
    const run = await started(store);
    loop = run.loop;
    await loop.idle();
    run.signal.send('evt_01kb0000000000000000000001');
    await store.rounds(3);
    await loop.idle();
    expect(store.froms).toEqual([null, 'evt_01kb0000000000000000000001', 'evt_01kb0000000000000000000200']);
  });

  it('reads all of it in the middle of a backlog when the poll or a wake-up asks', async () => {
    const store = new ScriptedStore([
      { events: 0, more: false },
      { events: 200, more: true, through: 'evt_01kb0000000000000000000200' },
      { events: 200, more: true, through: 'evt_01kb0000000000000000000400' },
      { events: 200, more: true, through: 'evt_01kb0000000000000000000600' },
    ]);
    const run = await started(store);
    loop = run.loop;
    await loop.idle();
    const open = store.hold();
    run.signal.send('evt_01kb0000000000000000000001');
    await store.rounds(2);
    run.signal.send(null);
    open();
    await store.rounds(4);
    expect(store.froms.slice(0, 4)).toEqual([null, 'evt_01kb0000000000000000000001', null, 'evt_01kb0000000000000000000400']);
  });

  it('reads all of it on each poll, so that an event committed below a floor already read is found', async () => {
    const store = new ScriptedStore();
    const run = await started(store, 20);
    loop = run.loop;
    await store.rounds(3);
    expect(store.froms.slice(0, 3)).toEqual([null, null, null]);
  });

  it('runs a backlog in two lanes: a round that says there is more starts a second beside the next', async () => {
    const store = new ScriptedStore([
      { events: 0, more: false },
      { events: 200, more: true, through: 'evt_01kb0000000000000000000200' },
      { events: 200, more: true, through: 'evt_01kb0000000000000000000400' },
      { events: 200, more: true, through: 'evt_01kb0000000000000000000600' },
    ]);
    const run = await started(store, 60_000, 2);
    loop = run.loop;
    await loop.idle();
    const first = store.hold();
    run.signal.send('evt_01kb0000000000000000000001');
    await store.rounds(2);
    first();
    const open = store.hold();
    // Both lanes read from where the backlog's first round ended (SKIP LOCKED shares the rows
    // out), and both are in flight while the gate holds them.
    await store.rounds(4);
    expect(store.froms).toEqual([null, 'evt_01kb0000000000000000000001', 'evt_01kb0000000000000000000200', 'evt_01kb0000000000000000000200']);
    open();
    await loop.idle();
    // Each lane goes on from where its own round ended, until a round finds no more.
    expect(store.froms.slice(4).sort()).toEqual(['evt_01kb0000000000000000000400', 'evt_01kb0000000000000000000600']);
  });
});

import { EventEmitter } from 'node:events';
import { DelayedError, type Worker } from 'bullmq';
import { HeldJobsCounter, superviseWorker } from '../../../src/composition/worker/supervised-worker';
import type { Disposable } from '../../../src/infrastructure/queue/bullmq-factory';
import { testLogger } from '../../support/silent-logger';

/** A worker that runs until disposed, and takes a job when told (`take`), or hands one back (`handBack`). */
class FakeWorker extends EventEmitter {
  private end!: () => void;
  disposed = false;
  constructor(private readonly processor: () => Promise<void> = async () => undefined) {
    super();
  }
  /** As BullMQ does with a job its processor hands back (DelayedError): `active`, then neither `completed` nor `failed`. */
  async handBack(): Promise<void> {
    this.emit('active');
    await this.processor().catch(() => undefined);
  }
  run(): Promise<void> {
    return new Promise((done) => (this.end = done));
  }
  take(): void {
    this.emit('active');
  }
  dispose(): Promise<void> {
    this.disposed = true;
    this.end();
    return Promise.resolve();
  }
}

/** The launches of a supervisor, each worker as it was made, and a wait for the n-th. */
function launches() {
  const made: FakeWorker[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const launch = (counted: HeldJobsCounter): Disposable<Worker<unknown>> => {
    const worker = new FakeWorker(
      counted(async () => {
        throw new DelayedError('handed back to the delayed set');
      }),
    );
    made.push(worker);
    waiters.filter((w) => made.length >= w.n).forEach((w) => w.resolve());
    return { value: worker as unknown as Worker<unknown>, dispose: () => worker.dispose() };
  };
  const until = (n: number) => new Promise<void>((resolve) => (made.length >= n ? resolve() : waiters.push({ n, resolve })));
  return { made, launch, until };
}

describe('a supervised delivery worker', () => {
  it('is replaced when jobs are ready in its queue and it takes none for a whole check', async () => {
    const { made, launch, until } = launches();
    const supervisor = superviseWorker(launch, testLogger(), { ready: async () => 3, concurrency: 10, everyMs: 20 });
    try {
      await until(2);
      expect(made[0].disposed).toBe(true);
      expect(made[1].disposed).toBe(false);
    } finally {
      await supervisor.stop();
    }
  });

  it('is kept while it takes jobs, and while nothing is ready', async () => {
    const { made, launch } = launches();
    let ready = 0;
    const checked: number[] = [];
    const supervisor = superviseWorker(launch, testLogger(), {
      ready: async () => {
        checked.push(ready);
        return ready;
      },
      concurrency: 10,
      everyMs: 20,
    });
    try {
      // Nothing ready: checks come and go.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => checked.length >= 3 && (clearInterval(poll), resolve()), 5);
      });
      // Ready, but it takes a job more often than each check: ten checks pass (an absence has no
      // event to wait for) and it is still the first worker.
      ready = 5;
      const taking = setInterval(() => made[0].take(), 5);
      await new Promise((resolve) => setTimeout(resolve, 200));
      clearInterval(taking);
      expect(made).toHaveLength(1);
    } finally {
      await supervisor.stop();
    }
  });

  it('is replaced when it stops taking jobs after any number of jobs handed back', async () => {
    const { made, launch, until } = launches();
    let ready = 0;
    const supervisor = superviseWorker(launch, testLogger(), { ready: async () => ready, concurrency: 10, everyMs: 20 });
    try {
      // 100 jobs taken and handed back: ten times what it may hold at once, none held now.
      for (let i = 0; i < 100; i++) await made[0].handBack();
      expect(made).toHaveLength(1);
      // Then it takes nothing while jobs are ready: replaced.
      ready = 3;
      await until(2);
      expect(made[0].disposed).toBe(true);
    } finally {
      await supervisor.stop();
    }
  });
});

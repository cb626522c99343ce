/** A stream the client uploads (Invocation with `streamIds`), consumed by a hub method with `for await`. */
export class ClientStream<T = unknown> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | undefined;
  private failWaiting: ((e: Error) => void) | undefined;
  private done = false;
  private error: Error | undefined;

  push(item: T): void {
    if (this.done) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failWaiting = undefined;
      resolve({ value: item, done: false });
    } else {
      this.items.push(item);
    }
  }

  end(error?: Error): void {
    if (this.done) return;
    this.done = true;
    this.error = error;
    if (error && this.failWaiting) this.failWaiting(error);
    else this.waiting?.({ value: undefined as T, done: true });
    this.waiting = this.failWaiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ value: this.items.shift() as T, done: false });
        if (this.done)
          return this.error
            ? Promise.reject(this.error)
            : Promise.resolve({ value: undefined as T, done: true });
        return new Promise((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
    };
  }
}

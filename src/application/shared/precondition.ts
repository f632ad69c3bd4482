/**
 * A condition on the current state of what a write changes, checked by the use case under the
 * write's lock and before the change, so that no other write can come between the check and the
 * change (an HTTP If-Match). It throws to refuse; the use case writes nothing then.
 */
export type Precondition<V> = (current: V) => void;

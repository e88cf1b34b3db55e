// The wall clock to the microsecond, for klog's `hh:mm:ss.uuuuuu`. Date.now() counts whole
// milliseconds; the monotonic clock counts finer but drifts from the wall clock (and ignores when it
// is set), so it only fills in below the millisecond: it is read from an anchor taken on a
// millisecond's turn, and anchored again whenever it strays a millisecond from Date.now().

let anchorWall = 0;
let anchorMono = 0;

/** Anchors the monotonic clock where the wall clock's millisecond turns (waits under 1 ms). */
function anchor(): void {
  const start = Date.now();
  let wall = start;
  while (wall === start) wall = Date.now();
  anchorWall = wall;
  anchorMono = performance.now();
}
anchor();

/** Microseconds since the epoch, never further than a millisecond from Date.now(). */
export function nowMicros(): number {
  let t = anchorWall + (performance.now() - anchorMono);
  const wall = Date.now();
  if (t < wall - 1 || t >= wall + 2) {
    anchor();
    t = anchorWall + (performance.now() - anchorMono);
  }
  return Math.floor(t * 1000);
}

// Moved to render/scheduler.js; kept for the files that still import it from here.
export { frameComing, idleHasRoom, justAfterFrame, requestIdle, runSliced, whenFrameIsOut } from '../render/scheduler.js';

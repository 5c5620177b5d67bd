/** autocannon's queue of requests awaiting answers, which keeps each answer's body. */
declare module 'autocannon/lib/pipelinedRequestsQueue' {
  export default class PipelinedRequestsQueue {
    addBody(data: Buffer): void;
  }
}

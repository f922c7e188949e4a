/**
 * A handler outcome that is the server's own bug, not the tool's answer: `-32603` with the detail
 * in a diagnostic. Only the library throws it (its wrappers around application handlers).
 */
export class ServerFault extends Error {
    /** What went wrong, as the `-32603` message and the diagnostic's summary say it. */
    readonly problem: string;
    /** What the diagnostic shows in full. */
    readonly detail: unknown;

    constructor(problem: string, detail: unknown) {
        super(problem);
        this.name = 'ServerFault';
        this.problem = problem;
        this.detail = detail;
    }
}

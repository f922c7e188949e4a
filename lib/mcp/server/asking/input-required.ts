/** A handler's run ended on unanswered questions (2026-07-28): the `input_required` result to answer. */
export class InputRequired {
    /** The serialized `InputRequiredResult`. */
    readonly json: string;

    constructor(json: string) {
        this.json = json;
    }
}

/** A refusal in an alert: the server's words, then its code. */
export const Refusal = ({ refusal }: { refusal: { message: string; code?: string } }) => (
  <p role="alert" className="error">
    {refusal.message}
    {refusal.code && <span className="error-code"> ({refusal.code})</span>}
  </p>
);

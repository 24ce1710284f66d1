/**
 * A file picker drawn by the station, not by the browser: the browser's own
 * button says "Choose File / No file chosen" in the browser's language, not
 * the bench's (issue 25). A real <button> (Tab and Enter reach it) opens the
 * hidden file input, which keeps its label (`id` for a <label htmlFor>, else
 * the button's text), so tests and screen readers find it by that label.
 */
import { useRef } from 'react';

interface FileButtonProps {
  /** The input's id, for a <label htmlFor> beside the button. */
  id?: string;
  /** The button's text, e.g. "Import rules…". */
  text: string;
  /** `accept` of the input: extensions and MIME types, e.g. ".csv,text/csv". */
  accept: string;
  disabled?: boolean;
  /** The file chosen (the input is then cleared, so the same file can be chosen again). */
  onFile(file: File): void;
}

/** A button that opens the file chooser and hands over the one file chosen. */
export function FileButton({ id, text, accept, disabled, onFile }: FileButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="btn" disabled={disabled} onClick={() => input.current?.click()}>
        {text}
      </button>
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        hidden
        disabled={disabled}
        aria-label={id ? undefined : text}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) onFile(f);
        }}
      />
    </>
  );
}

/** Transitional: the pages not yet on Field use these; Field (ui/field.tsx) is the one place controls get their error. */
/** The error of one field, under it; the field points at it with aria-describedby and sets aria-invalid. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} class="field-error ct-field-error">
      {message}
    </p>
  ) : null;
}

/** The attributes of a field the API may refuse: invalid and described by its error while it has one. */
export const invalidProps = (id: string, message: string | undefined) =>
  message ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};

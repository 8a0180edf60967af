import { type ComponentChildren, createContext, type FormHTMLAttributes } from 'preact';
import { useContext, useRef } from 'preact/hooks';
import type { Failure } from '../data/answer.js';

/** What a form tells its fields and its alert: the last failure, and the error keys its fields show. */
interface FormState {
  failure: Failure | undefined;
  shown: Set<string>;
}

const FormContext = createContext<FormState | undefined>(undefined);

/** The form a Field or a FailureAlert stands in, if any. */
export const useFormState = () => useContext(FormContext);

/**
 * A form whose fields show the API's error items about them and whose FailureAlert shows the rest. `onSubmit` is the
 * action (useAction's or usePatch's `run`): the page never handles the submit event itself.
 */
export function Form(
  props: Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> & {
    onSubmit: () => unknown;
    failure: Failure | undefined;
    children: ComponentChildren;
  },
) {
  const { onSubmit, failure, children, ...attributes } = props;
  // The keys are the fields' names, the same on every render: a field registers as it draws.
  const shown = useRef(new Set<string>()).current;
  return (
    <FormContext.Provider value={{ failure, shown }}>
      <form
        {...attributes}
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit();
        }}
      >
        {children}
      </form>
    </FormContext.Provider>
  );
}

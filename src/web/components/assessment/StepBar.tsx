import { UnstyledButton, VisuallyHidden } from '@mantine/core';
import { wizardSteps, type WizardStep } from './wizardSteps.ts';
import classes from './StepBar.module.css';

/**
 * The titles with soft hyphens, so that a phone's narrow columns break 'Demo-graphics' rather
 * than anywhere; wide screens show them whole.
 */
const breakableTitles: Record<WizardStep, string> = {
  1: 'Demo\u00ADgraphics',
  2: 'Risk Factors',
  3: 'Symp\u00ADtoms',
  4: 'Manage\u00ADment',
  5: 'Results',
};

export interface StepBarItem {
  step: WizardStep;
  reachable: boolean;
  complete: boolean;
}

/**
 * The five steps with their ticks (spec 2.6). A step that cannot be opened yet is a disabled
 * button; the current one is marked for assistive technology with aria-current.
 */
export function StepBar({
  items,
  current,
  onSelect,
}: {
  items: readonly StepBarItem[];
  current: WizardStep;
  onSelect: (step: WizardStep) => void;
}) {
  return (
    <nav aria-label="Assessment steps">
      <ol className={classes.list}>
        {wizardSteps.map(({ step, title }) => {
          const item = items.find((i) => i.step === step);
          const complete = item?.complete === true;
          const isCurrent = step === current;
          const className = [
            classes.step,
            complete ? classes.complete : '',
            isCurrent ? classes.current : '',
          ].join(' ');
          return (
            <li key={step}>
              <UnstyledButton
                className={className}
                disabled={item?.reachable !== true}
                aria-current={isCurrent ? 'step' : undefined}
                onClick={() => onSelect(step)}
              >
                <span className={classes.marker} aria-hidden="true">
                  {complete ? '✓' : step}
                </span>
                <span className={classes.title} aria-hidden="true">
                  {breakableTitles[step]}
                </span>
                <VisuallyHidden>
                  Step {step}: {title}
                  {complete && ' (completed)'}
                </VisuallyHidden>
              </UnstyledButton>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

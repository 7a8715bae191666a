import { type Locator, type Page } from '@playwright/test';
import { signIn, signInAsAdmin, signOut } from './fixtures.ts';
import {
  answer,
  enterCase1Demographics,
  enterCase1Management,
  enterCase1RiskFactors,
  enterCase1Symptoms,
  expectCase1Results,
  expectHeading,
  nurse,
  question,
  signInAsNurse,
  stepButton,
  wcagViolations,
} from './assessment-fixtures.ts';
import { expect, test } from './page-checks.ts';

// Each test walks through several steps and server calls.
test.describe.configure({ timeout: 90_000 });

const codePattern = /ASS-[0-9A-Z]+-[0-9A-Z]{4}/;
const staleMessage =
  'Someone else changed this assessment after you opened it. Reload it to see their changes; nothing was saved.';

async function assessmentCode(page: Page): Promise<string> {
  const text = await page.getByText(codePattern).first().textContent();
  const code = codePattern.exec(text ?? '')?.[0];
  expect(code).toBeDefined();
  return code ?? '';
}

test('a nurse enters SCORING.md case 1, saves, reloads, signs off and finds it read-only', async ({
  page,
}) => {
  await signInAsNurse(page);
  await page.goto('/assessments/new');
  await expect(page).toHaveURL(/\/assessments\/new\?step=1$/);
  await expectHeading(page, 'Patient Demographics');
  const code = await assessmentCode(page);

  await enterCase1Demographics(page);
  await expect(page.getByText('29.4', { exact: true })).toBeVisible();
  await expect(page.getByText('BMI >25 will be considered in risk calculations')).toBeVisible();
  await page.getByRole('button', { name: 'Continue to Risk Factors' }).click();

  await expectHeading(page, 'Risk Factor Assessment');
  await expect(page.getByText(code)).toBeVisible();
  await enterCase1RiskFactors(page);
  await page.getByRole('button', { name: 'Continue to Symptoms' }).click();

  await expectHeading(page, 'Symptom Assessment');
  await enterCase1Symptoms(page);
  await page.getByRole('button', { name: 'Continue to Management' }).click();

  await expectHeading(page, 'Management');
  await enterCase1Management(page);
  await page.getByRole('button', { name: 'Calculate Results' }).click();

  // Computed live in the browser before anything is saved.
  await expectHeading(page, 'Results');
  await expect(page).toHaveURL(/step=5/);
  await expectCase1Results(page);
  await expect(page.getByText('Results calculated from the current answers')).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign Off Results' })).toBeDisabled();
  await expect(page.getByText('Save the assessment before signing it off.')).toBeVisible();
  // A nurse is not offered the doctor review.
  await expect(page.getByRole('link', { name: 'Doctor Review' })).toHaveCount(0);

  const notes = page.getByRole('textbox', { name: 'Clinical Notes' });
  await notes.fill('Refer to GP for HbA1c.');
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText('Assessment saved successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/assessments\/[0-9a-f-]{36}\?step=5$/);
  const savedUrl = page.url();
  await expect(page.getByRole('button', { name: 'Assessment Saved' })).toBeDisabled();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);

  // Reloaded, it shows the server's results, the same as computed.
  await page.reload();
  await expectHeading(page, 'Results');
  await expect(page.getByText('Results as saved on the server')).toBeVisible();
  await expectCase1Results(page);
  await expect(page.getByText(code).first()).toBeVisible();
  await expect(notes).toHaveValue('Refer to GP for HbA1c.');
  await expect(page.getByRole('button', { name: 'Assessment Saved' })).toBeDisabled();

  await notes.fill('Refer to GP for HbA1c. Recheck BP in 2 weeks.');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign Off Results' })).toBeDisabled();
  await page.getByRole('button', { name: 'Update Assessment' }).click();
  await expect(page.getByText('Assessment updated successfully!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Assessment Saved' })).toBeDisabled();

  await page.getByRole('button', { name: 'Sign Off Results' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign Off Results' });
  await expect(dialog).toContainText(
    'Are you sure you want to sign off this assessment? Once signed off, no further changes can be made to this assessment.',
  );
  await dialog.getByRole('button', { name: 'Sign Off' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('🔒 Signed Off - Read Only')).toBeVisible();

  await page.reload();
  await expect(page.getByText('🔒 Signed Off - Read Only')).toBeVisible();
  await expect(notes).toBeDisabled();
  await expect(notes).toHaveValue('Refer to GP for HbA1c. Recheck BP in 2 weeks.');
  await expect(page.getByText(`Signed off by ${nurse.displayName}`)).toBeVisible();
  for (const title of ['Demographics', 'Risk Factors', 'Symptoms', 'Management']) {
    await expect(stepButton(page, title)).toBeDisabled();
  }
  await expect(stepButton(page, 'Results')).toBeEnabled();
  await expect(page.getByRole('button', { name: /Save Assessment|Update Assessment/ })).toHaveCount(
    0,
  );
  await expect(page.getByRole('button', { name: 'Back to Management' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sign Off Results' })).toHaveCount(0);

  // An earlier step's address lands on the results.
  await page.goto(savedUrl.replace('step=5', 'step=1'));
  await expectHeading(page, 'Results');
  await expect(page).toHaveURL(/step=5$/);

  await page.getByRole('button', { name: 'New Assessment' }).click();
  await expectHeading(page, 'Patient Demographics');
  await expect(page.getByRole('textbox', { name: 'Age' })).toHaveValue('');
  expect(await assessmentCode(page)).not.toBe(code);
});

test('step access follows the demographics, with a message beside each invalid field', async ({
  page,
}) => {
  await signInAsNurse(page);
  await page.goto('/assessments/new');
  await expectHeading(page, 'Patient Demographics');
  for (const title of ['Risk Factors', 'Symptoms', 'Management', 'Results']) {
    await expect(stepButton(page, title)).toBeDisabled();
  }
  // Risk Factors is always ticked (spec 4); Demographics not yet.
  await expect(stepButton(page, 'Risk Factors')).toHaveAccessibleName(/\(completed\)/);
  await expect(stepButton(page, 'Demographics')).not.toHaveAccessibleName(/\(completed\)/);
  const proceed = page.getByRole('button', { name: 'Continue to Risk Factors' });
  await expect(proceed).toBeDisabled();

  const age = page.getByRole('textbox', { name: 'Age' });
  const height = page.getByRole('textbox', { name: 'Height (cm)' });
  const weight = page.getByRole('textbox', { name: 'Weight (kg)' });
  await age.fill('130');
  await age.blur();
  await expect(page.getByText('Age must be between 1 and 120')).toBeVisible();
  await expect(age).toHaveAttribute('aria-invalid', 'true');
  // One rule in the hint, the field and the message: 0 is below it.
  await expect(page.getByText('Whole years, 1 to 120')).toBeVisible();
  await age.fill('0');
  await expect(page.getByText('Age must be between 1 and 120')).toBeVisible();
  await expect(proceed).toBeDisabled();
  await expect(
    page.getByText('Enter an age from 1 to 120, a gender, a height and a weight to continue.'),
  ).toBeVisible();
  await height.fill('300');
  await height.blur();
  await expect(page.getByText('Height must be between 50 and 250 cm')).toBeVisible();
  await weight.fill('0.5');
  await weight.blur();
  await expect(page.getByText('Weight must be between 1 and 500 kg')).toBeVisible();
  await weight.fill('');
  await expect(page.getByText('Weight is required')).toBeVisible();
  // Leaving the gender unanswered says it is required.
  await question(page, 'Gender').getByRole('radio', { name: 'Male', exact: true }).focus();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByText('Gender is required')).toBeVisible();
  await expect(proceed).toBeDisabled();

  await age.fill('45');
  await answer(page, 'Gender', 'Male');
  await height.fill('180');
  await weight.fill('75.5');
  for (const message of ['Age must', 'Height must', 'Weight is', 'Gender is']) {
    await expect(page.getByText(message)).toHaveCount(0);
  }
  await expect(page.getByText('BMI ≤25')).toBeVisible();
  await expect(proceed).toBeEnabled();
  await expect(stepButton(page, 'Demographics')).toHaveAccessibleName(/\(completed\)/);
  for (const title of ['Risk Factors', 'Symptoms', 'Management', 'Results']) {
    await expect(stepButton(page, title)).toBeEnabled();
  }
  await expect(stepButton(page, 'Symptoms')).not.toHaveAccessibleName(/\(completed\)/);
  await expect(stepButton(page, 'Management')).not.toHaveAccessibleName(/\(completed\)/);
  await expect(stepButton(page, 'Results')).not.toHaveAccessibleName(/\(completed\)/);

  // Any step can be opened from the bar now; answering ticks Symptoms and Management.
  await stepButton(page, 'Symptoms').click();
  await expectHeading(page, 'Symptom Assessment');
  await answer(page, 'Fatigue', 'No');
  await expect(stepButton(page, 'Symptoms')).toHaveAccessibleName(/\(completed\)/);
  await stepButton(page, 'Management').click();
  await answer(page, 'Is the patient diagnosed with TB?', 'No');
  await expect(stepButton(page, 'Management')).toHaveAccessibleName(/\(completed\)/);
  await expect(page.getByRole('combobox', { name: /Last doctor visit/ })).toHaveCount(0);
  await answer(page, 'Is the patient diagnosed with TB?', 'Yes');
  await expect(page.getByRole('combobox', { name: 'Last doctor visit (TB)' })).toBeVisible();
  await expect(
    page.getByRole('combobox', { name: 'Last doctor visit (TB)' }).locator('option').first(),
  ).toHaveText('Select timeframe');
  await expect(
    page
      .getByRole('combobox', { name: 'Current prescription duration (TB)' })
      .locator('option')
      .first(),
  ).toHaveText('Select duration');

  // Clearing the age closes the later steps again.
  await stepButton(page, 'Demographics').click();
  await age.fill('');
  for (const title of ['Risk Factors', 'Symptoms', 'Management', 'Results']) {
    await expect(stepButton(page, title)).toBeDisabled();
  }
  // A later step's address lands on step 1 while it cannot be opened.
  await page.goto('/assessments/new?step=4');
  await expectHeading(page, 'Patient Demographics');
  await expect(page).toHaveURL(/step=1$/);
});

test('the symptom step shows the Asthma prerequisite and the asymptomatic Hyperlipidaemia', async ({
  page,
}) => {
  await signInAsNurse(page);
  await page.goto('/assessments/new');
  await enterCase1Demographics(page);
  await stepButton(page, 'Symptoms').click();
  const next = page.getByRole('button', { name: 'Next Condition' });
  await expect(page.getByRole('button', { name: 'Previous Condition' })).toBeDisabled();
  for (let i = 0; i < 3; i++) await next.click();
  await expect(page.getByText('Step 4 of 6')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Asthma' })).toBeFocused();
  await expect(page.getByText('Prerequisites Required')).toBeVisible();
  await expect(
    page.getByText('Cough OR Wheezing must be present for further assessment'),
  ).toBeVisible();
  // Wheezing has a severity; cough has none.
  await answer(page, 'Cough (on and off)', 'Yes');
  await expect(question(page, 'Cough (on and off) severity')).toHaveCount(0);
  await answer(page, 'Wheezing', 'Yes');
  await expect(question(page, 'Wheezing severity')).toBeVisible();
  await answer(page, 'Wheezing', 'No');
  await expect(question(page, 'Wheezing severity')).toHaveCount(0);

  // The condition is in the address: a reload keeps it.
  await page.reload();
  await expect(page.getByText('Step 4 of 6')).toBeVisible();
  await expect(
    question(page, 'Cough (on and off)').getByRole('radio', { name: 'Yes' }),
  ).toBeChecked();

  await next.click();
  await next.click();
  await expect(page.getByText('Step 6 of 6')).toBeVisible();
  await expect(page.getByText('Asymptomatic Condition')).toBeVisible();
  await expect(next).toBeDisabled();
  await expect(page.getByRole('radiogroup')).toHaveCount(0);
});

/** Presses Tab until the element has the focus: proves it can be reached by keyboard. */
async function tabTo(page: Page, target: Locator, maxPresses = 60): Promise<void> {
  for (let i = 0; i < maxPresses; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('the whole flow can be completed with the keyboard alone', async ({ page }) => {
  await signInAsNurse(page);
  await page.goto('/assessments/new');
  await expectHeading(page, 'Patient Demographics');

  await tabTo(page, page.getByRole('textbox', { name: 'Age' }));
  await page.keyboard.type('45');
  // Tab enters the gender group on its first option; Space chooses it.
  await page.keyboard.press('Tab');
  await expect(
    question(page, 'Gender').getByRole('radio', { name: 'Male', exact: true }),
  ).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(question(page, 'Gender').getByRole('radio', { name: 'Female' })).toBeChecked();
  await page.keyboard.press('Tab');
  await page.keyboard.type('170');
  await page.keyboard.press('Tab');
  await page.keyboard.type('90');
  await tabTo(page, page.getByRole('button', { name: 'Continue to Risk Factors' }));
  await page.keyboard.press('Enter');

  await expectHeading(page, 'Risk Factor Assessment');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await tabTo(
    page,
    question(page, 'Smoking (current or within 5 years)').getByRole('radio').first(),
  );
  await page.keyboard.press('Space');
  await expect(
    question(page, 'Smoking (current or within 5 years)').getByRole('radio', { name: 'Yes' }),
  ).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Continue to Symptoms' }));
  await page.keyboard.press('Enter');

  await expectHeading(page, 'Symptom Assessment');
  // Each condition starts with the focus on its name, from where Tab goes on to its questions.
  for (const condition of ['HIV', 'TB', 'Asthma']) {
    await tabTo(page, page.getByRole('button', { name: 'Next Condition' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: condition, exact: true })).toBeFocused();
  }
  await expect(page.getByText('Step 4 of 6')).toBeVisible();
  await tabTo(page, question(page, 'Wheezing').getByRole('radio').first());
  await page.keyboard.press('Space');
  await tabTo(page, question(page, 'Wheezing severity').getByRole('radio').first());
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(
    question(page, 'Wheezing severity').getByRole('radio', { name: 'Severe' }),
  ).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Continue to Management' }));
  await page.keyboard.press('Enter');

  await expectHeading(page, 'Management');
  await tabTo(page, page.getByRole('button', { name: 'Calculate Results' }));
  await page.keyboard.press('Enter');

  await expectHeading(page, 'Results');
  // Age 45, smoking, wheezing severe: 0.9 x 2 + 1.2 + 1.33 with 3 factors against 2.
  const asthma = page.getByRole('region', { name: 'Asthma', exact: true });
  await expect(asthma).toContainText('High Risk');
  await expect(asthma).toContainText('Total score4.3300');
  await tabTo(page, page.getByRole('textbox', { name: 'Clinical Notes' }));
  await page.keyboard.type('Entered by keyboard.');
  await tabTo(page, page.getByRole('button', { name: 'Save Assessment' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Assessment saved successfully!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Assessment Saved' })).toBeVisible();

  await tabTo(page, page.getByRole('button', { name: 'Sign Off Results' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Sign Off Results' });
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Sign Off' }), 5);
  await page.keyboard.press('Enter');
  await expect(page.getByText('🔒 Signed Off - Read Only')).toBeVisible();
});

test('an assessment in progress survives a reload, back and forward; a new one starts empty', async ({
  page,
}) => {
  await signInAsNurse(page);
  await page.goto('/assessments/new');
  const code = await assessmentCode(page);
  await enterCase1Demographics(page);
  await page.getByRole('button', { name: 'Continue to Risk Factors' }).click();
  await answer(page, 'Household TB exposure', 'Yes');

  await page.reload();
  await expectHeading(page, 'Risk Factor Assessment');
  expect(await assessmentCode(page)).toBe(code);
  await expect(
    question(page, 'Household TB exposure').getByRole('radio', { name: 'Yes' }),
  ).toBeChecked();

  await page.goBack();
  await expectHeading(page, 'Patient Demographics');
  await expect(page.getByRole('textbox', { name: 'Age' })).toHaveValue('58');
  await page.goForward();
  await expectHeading(page, 'Risk Factor Assessment');

  // 'Start New Assessment' links here: all data reset, step 1, a new code.
  await page.goto('/assessments/new');
  await expectHeading(page, 'Patient Demographics');
  await expect(page.getByRole('textbox', { name: 'Age' })).toHaveValue('');
  const newCode = await assessmentCode(page);
  expect(newCode).not.toBe(code);

  // Signing out clears the draft from the tab.
  await page.getByRole('textbox', { name: 'Age' }).fill('33');
  await expect
    .poll(() => page.evaluate(() => sessionStorage.getItem('triage.assessmentDraft')))
    .toContain('"age":"33"');
  await signOut(page);
  expect(await page.evaluate(() => sessionStorage.getItem('triage.assessmentDraft'))).toBeNull();
  await signIn(page, nurse.username, nurse.password);
  await page.goto('/assessments/new?step=1');
  await expect(page.getByRole('textbox', { name: 'Age' })).toHaveValue('');
});

test('a conflicting change is reported with a reload that keeps the typed notes', async ({
  page,
}) => {
  await signInAsNurse(page);
  const created = await page.request.post('/api/assessments', {
    data: {
      demographics: { age: 40, gender: 'Male', height: 175, weight: 70 },
      notes: 'First note.',
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/assessments/${id}`);
  await expectHeading(page, 'Results');
  await expect(page).toHaveURL(/step=5$/);

  const notes = page.getByRole('textbox', { name: 'Clinical Notes' });
  await notes.fill('My careful note.');

  // Someone else updates it meanwhile.
  const other = await page.request.put(`/api/assessments/${id}`, {
    headers: { 'if-match': '"1"' },
    data: {
      demographics: { age: 40, gender: 'Male', height: 175, weight: 70 },
      notes: 'Their note.',
    },
  });
  expect(other.status()).toBe(200);

  await page.getByRole('button', { name: 'Update Assessment' }).click();
  await expect(page.getByText(staleMessage)).toBeVisible();
  expect(await wcagViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(notes).toHaveValue('Their note.');
  await expect(page.getByRole('textbox', { name: 'Notes you had typed' })).toHaveValue(
    'My careful note.',
  );
  await expect(page.getByRole('button', { name: 'Assessment Saved' })).toBeDisabled();
  expect(await wcagViolations(page)).toEqual([]);

  // Signed off by someone else meanwhile: the update is refused and says why.
  await notes.fill('Their note. Mine too.');
  const current = await page.request.get(`/api/assessments/${id}`);
  const signedOff = await page.request.post(`/api/assessments/${id}/sign-off`, {
    headers: { 'if-match': current.headers().etag ?? '' },
  });
  expect(signedOff.status()).toBe(200);
  await page.getByRole('button', { name: 'Update Assessment' }).click();
  await expect(page.getByText('Cannot update signed-off assessment')).toBeVisible();
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByText('🔒 Signed Off - Read Only')).toBeVisible();
  await expect(notes).toBeDisabled();
  await expect(page.getByRole('textbox', { name: 'Notes you had typed' })).toHaveValue(
    'Their note. Mine too.',
  );
});

test('a doctor or admin reaches the review from the results; reports need a saved assessment', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto('/assessments/new');
  await enterCase1Demographics(page);
  await stepButton(page, 'Results').click();
  await page.getByRole('button', { name: 'Download Report' }).click();
  await expect(page.getByText('Cannot generate report: Missing assessment data')).toBeVisible();
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText('Assessment saved successfully!')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Report' }).click();
  expect((await download).suggestedFilename()).toMatch(
    /^comprehensive-assessment-ASS-[0-9A-Z]+-[0-9A-Z]{4}-\d{4}-\d{2}-\d{2}\.txt$/,
  );
  const id = /\/assessments\/([^/?]+)/.exec(page.url())?.[1];
  await expect(page.getByRole('link', { name: 'Doctor Review' })).toHaveAttribute(
    'href',
    `/assessments/${id}/review`,
  );
  await expect(page.getByRole('link', { name: 'Print' })).toHaveAttribute(
    'href',
    `/assessments/${id}/report`,
  );
});

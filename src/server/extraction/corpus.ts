/**
 * Test corpus: nurse notes and doctor comments written for the extractor's tests, each with
 * the codes a careful human reader would mark in it. Check digits are real (LOINC mod 10,
 * SNOMED CT Verhoeff); assessment codes encode real 2024-2025 times. Deliberate typos are
 * annotated the way the extractor is meant to treat them: a mistyped high or medium code is
 * expected at low confidence, a mistyped low-confidence code is expected to be left out.
 */
import { BASE_CONFIDENCE } from './patterns.ts';
import { CODE_TYPES, type CodeType, type Confidence, type NoteKind } from './types.ts';

export interface ExpectedMatch {
  type: CodeType;
  code: string;
  confidence: Confidence;
}

export interface CorpusNote {
  kind: NoteKind;
  condition?: string;
  text: string;
  expected: ExpectedMatch[];
}

/** Longest first, so that 'ICD-10 …' is not read as a type 'ICD-1'. */
const TYPES_BY_LENGTH = [...CODE_TYPES].sort((first, second) => second.length - first.length);

/** 'ICD-10 E11.9' or 'ICD-10 K99.8 @low' -> an expected match. */
function parseExpected(entry: string): ExpectedMatch {
  const type = TYPES_BY_LENGTH.find((candidate) => entry.startsWith(`${candidate} `));
  if (type === undefined) throw new Error(`Corpus entry without a known type: ${entry}`);
  const [code = '', override] = entry.slice(type.length + 1).split(' @');
  const confidence = override === undefined ? BASE_CONFIDENCE[type] : (override as Confidence);
  return { type, code, confidence };
}

function nurse(text: string, ...expected: string[]): CorpusNote {
  return { kind: 'assessment_note', text, expected: expected.map(parseExpected) };
}

function doctor(condition: string, text: string, ...expected: string[]): CorpusNote {
  return { kind: 'doctor_comment', condition, text, expected: expected.map(parseExpected) };
}

const DIABETES: CorpusNote[] = [
  nurse(
    'Pt c/o polyuria and polydipsia x 3/52. RBS 14.2 mmol/L, HbA1c 8.9% (2024-03-15). Known DM2 on metformin 850 mg bd. Dx E11.9. BP 132/84, wt 96.1 kg.',
    'ICD-10 E11.9',
  ),
  nurse(
    'Follow-up diabetic review. Fasting glucose 7.8, HbA1c 7.1% down from 8.4%. Feet checked, monofilament intact bilaterally. Continue metformin 1 g bd + gliclazide 80 mg. ICD-10: E11.65 (hyperglycaemia).',
    'ICD-10 E11.65',
  ),
  nurse(
    'Diabetic foot ulcer R hallux, 1.5 x 1 cm, clean base. Dressing done. Codes: E11.621, L97.519. Refer podiatry REF-20931.',
    'ICD-10 E11.621',
    'ICD-10 L97.519',
    'Custom Code REF-20931',
  ),
  nurse(
    'Insulin started: Lantus 10 units nocte, titrate by 2 U every 3 days to FBG 4-7. Long-term insulin use V58.67 noted on old chart. Z79.4 added.',
    'ICD-9 V58.67',
    'ICD-10 Z79.4',
  ),
  nurse(
    'HbA1c 9.6% (LOINC 4548-4). Pt admits poor adherence. Counselled on diet. Next HbA1c in 3 months. SNOMED CT 44054006 |Diabetes mellitus type 2|.',
    'LOINC 4548-4',
    'SNOMED CT 44054006',
  ),
  nurse(
    'Hypo episode at home, glucose 2.9, took 3 glucose tabs. Now 6.4. Gliclazide reduced to 40 mg. E11.649 documented.',
    'ICD-10 E11.649',
  ),
  nurse(
    'Retinal screen booked. eGFR 52, ACR 6.1. DM2 with CKD stage 3a: E11.22 + N18.31. Metformin dose reduced to 500 mg bd.',
    'ICD-10 E11.22',
    'ICD-10 N18.31',
  ),
  nurse(
    'New diagnosis of type 2 diabetes today. FBG 8.1 and 8.4 on two occasions, HbA1c 7.3%. Started metformin 500 mg od with meals. Education given. ASS-LTSGK4W0-3M8P.',
    'Assessment Code ASS-LTSGK4W0-3M8P',
  ),
  nurse(
    'Legacy record shows ICD-9 250.00 (DM2 without complication). Mapped to E11.9 for current system.',
    'ICD-9 250.00',
    'ICD-10 E11.9',
  ),
  nurse(
    'Glucometer readings reviewed: 6.2, 7.9, 11.4, 8.0. Pt using 1 strip/day. Script RX-448812 for strips and lancets. Phone pt on 082 555 1934 with results.',
    'Medication Code RX-448812',
  ),
  nurse(
    'Charted for billing: CPT 99214, 83036 (HbA1c), 82947. Dx E11.9, E66.9.',
    'CPT 99214',
    'CPT 83036',
    'CPT 82947',
    'ICD-10 E11.9',
    'ICD-10 E66.9',
  ),
  nurse(
    'Trulicity 0.75 mg weekly started, NDC 0002-1433-80. Pen technique demonstrated. Nausea warned.',
    'NDC 0002-1433-80',
  ),
  nurse(
    'Pt reports tingling feet. Vit B12 level requested as on metformin > 5 yrs. Dx E11.40 diabetic neuropathy.',
    'ICD-10 E11.40',
  ),
  nurse(
    'GDM history in 2019 pregnancy (O24.410 at the time), now E11.9. HbA1c 6.9%.',
    'ICD-10 O24.410',
    'ICD-10 E11.9',
  ),
  nurse(
    'Annual diabetic review done with nurse. BMI 33.4, waist 108 cm. BP 138/86. Lipids sent (LAB-20240315-0042). Urine ACR sent.',
    'Lab Code LAB-20240315-0042',
  ),
  nurse(
    'Sick-day rules explained. If BG > 15 x2 or ketones, come in. Dapagliflozin 10 mg held while vomiting.',
  ),
  nurse(
    'DM2 poorly controlled: HbA1c 10.2% (4548-4), FBG 12.8 (1558-6). Referred to diabetologist.',
    'LOINC 4548-4',
    'LOINC 1558-6',
  ),
  nurse(
    'Pt asked about Ozempic. Not on formulary; continue current regimen. MED-00412 (metformin XR) renewed.',
    'Medication Code MED-00412',
  ),
  nurse(
    'Diabetic eye screen: mild NPDR both eyes, E11.329. Ophthal review in 12 months.',
    'ICD-10 E11.329',
  ),
  nurse(
    'Pt seen with daughter. Forgetting evening dose. Pill organiser given. Metformin 1000 mg bd, sitagliptin 100 mg od. No hypos. Next review 2024-09-30.',
  ),
  nurse(
    'Hyperglycaemia on steroids (prednisone 40 mg). RBS 18.6. Coded as E11.65 by admitting team; may be steroid-induced, consider E09.65 instead.',
    'ICD-10 E11.65',
    'ICD-10 E09.65',
  ),
  nurse(
    'Foot check: pulses present, no callus. Monofilament 10/10 sites felt. Nil ulcer. E11.9 stable.',
    'ICD-10 E11.9',
  ),
  nurse(
    'Pre-diabetes (R73.03) last year; now meets criteria for diabetes, HbA1c 6.8% x2. New code E11.9.',
    'ICD-10 R73.03',
    'ICD-10 E11.9',
  ),
  nurse(
    'Insulin pump check, basal 0.8 U/h. Not type 2 - this pt is E10.9 (type 1). Ignore the DM2 flag on file.',
    'ICD-10 E10.9',
  ),
  nurse(
    'Weight 101.5 kg (up 3 kg). Advised dietician. Dietician referral REF-20977. Diabetes E11.9, obesity E66.01.',
    'Custom Code REF-20977',
    'ICD-10 E11.9',
    'ICD-10 E66.01',
  ),
  nurse(
    'HbA1c 7.0 % on 15/03/2024, 7.4 % on 12/12/2023. Good trend. Continue. PID-004417.',
    'Patient ID PID-004417',
  ),
  nurse(
    'Nurse-led DM clinic. MRN 7744120. Glucose meter serial GM-5521-88 logged. Readings 5.6-9.8.',
    'Patient ID MRN 7744120',
    'Custom Code GM-5521-88',
  ),
  nurse(
    'ICD-9 codes from the 2009 chart: 250.02, 272.4, 401.9. Current ICD-10: E11.65, E78.5, I10.',
    'ICD-9 250.02',
    'ICD-9 272.4',
    'ICD-9 401.9',
    'ICD-10 E11.65',
    'ICD-10 E78.5',
    'ICD-10 I10',
  ),
  nurse('Ketones 0.4. Pt well. Diet-controlled diabetes, no meds. E11.9.', 'ICD-10 E11.9'),
  nurse('Glucose 250.00 on the lab sheet looks like a typo; repeat sent.'),
];

const HYPERTENSION: CorpusNote[] = [
  nurse(
    'BP 162/98 (L arm), 158/96 (R arm) after 5 min rest. Known HTN I10 on amlodipine 5 mg. Uptitrate to 10 mg.',
    'ICD-10 I10',
  ),
  nurse(
    'Home BP diary: average 148/92. Added losartan 50 mg od. U&E in 2/52. Dx: essential hypertension (I10).',
    'ICD-10 I10',
  ),
  nurse(
    'Hypertensive heart disease I11.9 per cardiology letter. Echo: LVH. Continue perindopril 4 mg.',
    'ICD-10 I11.9',
  ),
  nurse(
    'BP 118/76 today, well controlled. HR 72 reg. No dizziness. Continue meds. CPT 99213.',
    'CPT 99213',
  ),
  nurse(
    'Headache and dizziness x 2 days. BP 182/110. Urgent review by Dr. Naidoo, no end-organ signs. Hypertensive urgency I16.0.',
    'ICD-10 I16.0',
  ),
  nurse(
    'HTN with CKD: I12.9 + N18.3. Cr 142, eGFR 41. Avoid NSAIDs.',
    'ICD-10 I12.9',
    'ICD-10 N18.3',
  ),
  nurse('ECG done (CPT 93000): sinus rhythm 68 bpm, no LVH. BP 136/88.', 'CPT 93000'),
  nurse(
    'Secondary hypertension query - renal artery stenosis? I15.0 suspected, renal US booked.',
    'ICD-10 I15.0',
  ),
  nurse('Pt on HCTZ 12.5 mg. K 3.3 low. Repeat U&E. BP 128/82.'),
  nurse(
    'ICD-9 401.9 carried over from old system; update to I10. Pt informed of BP target < 140/90.',
    'ICD-9 401.9',
    'ICD-10 I10',
  ),
  nurse(
    'Ambulatory BP monitor fitted 09:30, remove tomorrow 09:30. Device ABPM-00871.',
    'Custom Code ABPM-00871',
  ),
  nurse(
    'Systolic BP (LOINC 8480-6) 152, diastolic (LOINC 8462-4) 94.',
    'LOINC 8480-6',
    'LOINC 8462-4',
  ),
  nurse('BP check only. 124/80. Good. Ph 011-555-0123 if problems.'),
  nurse(
    'Hypertension in pregnancy history (O10.02). Now postpartum 1 yr, BP normal off meds.',
    'ICD-10 O10.02',
  ),
  nurse(
    'Dx I10, E78.5, E11.9. Pt on amlodipine, atorvastatin, metformin. All scripts renewed RX-552019.',
    'ICD-10 I10',
    'ICD-10 E78.5',
    'ICD-10 E11.9',
    'Medication Code RX-552019',
  ),
  nurse('Pt declined BP meds. Lifestyle advice. Recheck in 4-6 weeks. BP 146/94.'),
  nurse(
    'Hypertensive retinopathy noted by optometrist, H35.039. BP 170/100. Same-day GP review.',
    'ICD-10 H35.039',
  ),
  nurse(
    'Postural drop: lying 142/88, standing 118/74. Reduce doxazosin 4 mg to 2 mg. I95.1 considered.',
    'ICD-10 I95.1',
  ),
  nurse(
    'SNOMED 38341003 (hypertensive disorder) recorded in referral from clinic. BP 150/95.',
    'SNOMED CT 38341003',
  ),
  nurse('Pulse 88, RR 16, SpO2 98% RA, T 36.7. BP 131/79. Nil acute. Review 2025-03-04.'),
  nurse(
    'Gestational hypertension O13.3 at 32 weeks, Z3A.32. BP 148/96.',
    'ICD-10 O13.3',
    'ICD-10 Z3A.32',
  ),
];

const HIV: CorpusNote[] = [
  nurse(
    'HIV positive since 2016, on TLD 1 tab daily. VL < 50 copies/mL (2024-02-20), CD4 612. B20 on problem list.',
    'ICD-10 B20',
  ),
  nurse(
    'Newly diagnosed HIV today, rapid test x2 reactive. Counselled. CD4 and VL sent LAB-77120. Start ART same day per guideline. ICD-10 B24.',
    'Lab Code LAB-77120',
    'ICD-10 B24',
  ),
  nurse(
    'Adherence counselling session 3. Pt missed 4 doses last month. Pill count 26/30. Z21 asymptomatic HIV status.',
    'ICD-10 Z21',
  ),
  nurse(
    'VL 12500 copies/mL - unsuppressed. Step-up adherence. Repeat VL in 3 months. HIV-1 RNA LOINC 20447-9.',
    'LOINC 20447-9',
  ),
  nurse(
    'CD4 count 180 cells/uL, start cotrimoxazole prophylaxis. CD4 LOINC 24467-3.',
    'LOINC 24467-3',
  ),
  nurse(
    'Pt on dolutegravir 50 mg. HLA-B*5701 not needed. Weight gain 4 kg since ART start. B20 E66.9.',
    'ICD-10 B20',
    'ICD-10 E66.9',
  ),
  nurse(
    'PrEP visit: HIV test negative, creatinine 78. TDF/FTC renewed RX-30021. Z20.6 exposure, Z79.899 long-term meds.',
    'Medication Code RX-30021',
    'ICD-10 Z20.6',
    'ICD-10 Z79.899',
  ),
  nurse(
    'PMTCT: infant PCR sent at 6 weeks, result pending. Mother B20, on TLD, VL LDL. Infant MRN 5566021.',
    'ICD-10 B20',
    'Patient ID MRN 5566021',
  ),
  nurse(
    'HIV-associated nephropathy? Proteinuria 3+. Referred renal. B20 with N05.9.',
    'ICD-10 B20',
    'ICD-10 N05.9',
  ),
  nurse('Doctor to review Kaposi lesions on leg, C46.0. ART for 2 years. CD4 410.', 'ICD-10 C46.0'),
  nurse(
    'Pt disclosed status to partner. Partner tested today, negative. Condoms given. Next visit ASS-M1P4JLS0-L5W2.',
    'Assessment Code ASS-M1P4JLS0-L5W2',
  ),
  nurse('Old ICD-9 042 on paper file (HIV disease). Current code B20.', 'ICD-9 042', 'ICD-10 B20'),
  nurse(
    'Switching from efavirenz regimen due to vivid dreams. New regimen TLD. Baseline Cr 88, eGFR > 90. SNOMED CT 86406008 |Human immunodeficiency virus infection|.',
    'SNOMED CT 86406008',
  ),
  nurse(
    'HIV test (CPT 86701) done at community outreach, non-reactive. Pt counselled on window period.',
    'CPT 86701',
  ),
  nurse(
    'Pt on ART, VL suppressed < 20. Cervical screen due. Hep B surface Ag neg. Nothing to code today.',
  ),
  nurse(
    'Lost to follow-up 8 months, returned today. Restart ART, VL in 3 months. PID-000873. Z91.19 non-adherence.',
    'Patient ID PID-000873',
    'ICD-10 Z91.19',
  ),
  nurse(
    'Oral candidiasis B37.0 in HIV pt, fluconazole 200 mg stat then 100 mg od x 14 days.',
    'ICD-10 B37.0',
  ),
  nurse(
    'Acute HIV syndrome suspected: fever, rash, sore throat after exposure 3/52 ago. p24 Ag sent. B23.0 provisional.',
    'ICD-10 B23.0',
  ),
  nurse(
    'IPT completed for HIV+ pt. No TB symptoms. Z21, Z92.29 (history of preventive therapy).',
    'ICD-10 Z21',
    'ICD-10 Z92.29',
  ),
  nurse(
    'Pt asked about U=U. Explained undetectable viral load cannot transmit. VL 38 copies. Encouraged.',
  ),
];

const TUBERCULOSIS: CorpusNote[] = [
  nurse(
    'Cough > 2 weeks, night sweats, wt loss 6 kg. Sputum x2 for GeneXpert sent LAB-88120. CXR requested (CPT 71046).',
    'Lab Code LAB-88120',
    'CPT 71046',
  ),
  nurse(
    'GeneXpert MTB detected, RIF resistance not detected. Start HRZE. Pulmonary TB A15.0.',
    'ICD-10 A15.0',
  ),
  nurse(
    'TB treatment month 2, intensive phase completed. Sputum smear conversion. Wt 58.2 kg, up 2.1 kg. Continue A15.0 regimen, switch to HR.',
    'ICD-10 A15.0',
  ),
  nurse(
    'Household contact of smear-positive TB case. Asymptomatic. Mantoux (CPT 86580) read 72 h: 15 mm. Z20.1 contact.',
    'CPT 86580',
    'ICD-10 Z20.1',
  ),
  nurse('Extrapulmonary TB - TB lymphadenitis A18.2, FNA confirmed. On HRZE.', 'ICD-10 A18.2'),
  nurse(
    'TB meningitis A17.0 in 2023, completed Rx. Residual headache. Neuro follow-up.',
    'ICD-10 A17.0',
  ),
  nurse(
    'Miliary TB A19.9 with HIV B20. Admitted. Started TB Rx first, ART in 2 weeks.',
    'ICD-10 A19.9',
    'ICD-10 B20',
  ),
  nurse(
    'DOT supervisor reports pt missed 5 doses this week. Home visit booked. Rifampicin 600 mg, isoniazid 300 mg, pyrazinamide 1600 mg, ethambutol 1100 mg.',
  ),
  nurse(
    'N95 respirator fitted for staff before sputum induction. Pt in side room 4. Cough ongoing.',
  ),
  nurse('Latent TB infection on IGRA, Z22.7. Start 3HP. LFTs baseline ALT 24.', 'ICD-10 Z22.7'),
  nurse(
    'MDR-TB suspected, rifampicin resistance detected. Referral to MDR unit REF-31002. A15.0 with U84.3? (resistance to tuberculostatics, WHO code).',
    'Custom Code REF-31002',
    'ICD-10 A15.0',
    'ICD-10 U84.3',
  ),
  nurse(
    'Old TB code from ICD-9: 011.90 (pulmonary TB unspecified). Now on file as A15.0.',
    'ICD-9 011.90',
    'ICD-10 A15.0',
  ),
  nurse('Hb 10.9 (718-7) - mild anaemia of chronic disease on TB Rx.', 'LOINC 718-7'),
  nurse(
    'CXR: right upper lobe cavitation. Sputum sent. Contact tracing list given to pt. Ward 3 bed C12.',
  ),
  nurse(
    'TB pleural effusion A16.5 (no bacteriological confirmation). Pleural tap done.',
    'ICD-10 A16.5',
  ),
  nurse(
    'Pt completed 6 months TB Rx, cured. Outcome recorded. Z86.11 personal history of TB.',
    'ICD-10 Z86.11',
  ),
  nurse(
    'Weight 49.8 kg, BMI 17.1. Nutritional supplements. TB on treatment. Patient ID: 4471882.',
    'Patient ID Patient ID 4471882',
  ),
  nurse(
    'Hepatotoxicity on TB Rx: ALT 312, jaundice. Stop RHZ. K71.6 drug-induced hepatitis.',
    'ICD-10 K71.6',
  ),
  nurse(
    'GeneXpert Ultra trace result. Repeat sputum. SNOMED 56717001 (tuberculosis).',
    'SNOMED CT 56717001',
  ),
  nurse('TB screening questionnaire negative. Pt well. Next screen in 6 months.'),
  nurse(
    'Old discharge summary (2011): ICD-9 428.0 CHF, 414.01 CAD, 250.00 DM.',
    'ICD-9 428.0',
    'ICD-9 414.01',
    'ICD-9 250.00',
  ),
  nurse('V12.01 personal history of TB noted in old file.', 'ICD-9 V12.01'),
];

const ASTHMA: CorpusNote[] = [
  nurse(
    'Wheeze and SOB at night x 1 week. PEFR 280 L/min (predicted 450). Salbutamol 2 puffs prn. J45.909 uncomplicated asthma.',
    'ICD-10 J45.909',
  ),
  nurse(
    'Asthma review: ACT score 16, poorly controlled. Step up to budesonide/formoterol. J45.40 moderate persistent.',
    'ICD-10 J45.40',
  ),
  nurse(
    'Acute asthma attack, SpO2 91%, HR 118, RR 28. Nebs given x3. J45.901 with exacerbation. Ambulance called.',
    'ICD-10 J45.901',
  ),
  nurse(
    'Spirometry (CPT 94010): FEV1 1.9 L (62% pred), FEV1/FVC 0.68. Reversibility 14%.',
    'CPT 94010',
  ),
  nurse(
    'Inhaler technique poor, spacer given. Clenil 100 mcg 2 puffs bd. Asthma J45.',
    'ICD-10 J45',
  ),
  nurse(
    'Child with asthma, 7 yrs, wt 24 kg. Salbutamol MDI via spacer. Mum given asthma plan. J45.20 mild intermittent.',
    'ICD-10 J45.20',
  ),
  nurse('Exercise-induced bronchospasm J45.990. Pre-exercise salbutamol.', 'ICD-10 J45.990'),
  nurse(
    'Asthma/COPD overlap? J44.9 vs J45.909 - spirometry pending. Ex-smoker 20 pack-years.',
    'ICD-10 J44.9',
    'ICD-10 J45.909',
  ),
  nurse(
    'Peak flow diary reviewed: best 410, worst 300. Variation > 20%. Suggestive of asthma. Refer for spirometry.',
  ),
  nurse(
    'Montelukast 10 mg nocte added. RX-77102. Allergic rhinitis J30.9 too.',
    'Medication Code RX-77102',
    'ICD-10 J30.9',
  ),
  nurse(
    'Severe persistent asthma J45.50 on biologic. Eosinophils 0.6. Next injection 2024-11-12.',
    'ICD-10 J45.50',
  ),
  nurse(
    'Asthma reviewed by nurse. Uses reliever 3-4 x/week. Steroid inhaler adherence 50%. Smoking cessation advised, Z72.0.',
    'ICD-10 Z72.0',
  ),
  nurse('FEV1 (LOINC 20150-9) 2.1 L, FVC (LOINC 19868-9) 3.0 L.', 'LOINC 20150-9', 'LOINC 19868-9'),
  nurse(
    'Prednisolone 40 mg x 5 days for flare. Follow up 1/52. SNOMED CT: 195967001 |Asthma|.',
    'SNOMED CT 195967001',
  ),
  nurse(
    'Pt worried about inhaler cost. Generic substitution discussed. NDC 0173-0682-20 (Ventolin HFA).',
    'NDC 0173-0682-20',
  ),
  nurse(
    'Night cough, no wheeze on exam. Cough variant asthma? Trial ICS 6 weeks. R05 cough for now.',
    'ICD-10 R05',
  ),
  nurse('Asthma action plan updated. Green zone PEF > 380. Yellow 230-380. Red < 230.'),
  nurse(
    'Occupational asthma suspected (bakery). J45.909 and Z57.2? Refer occupational health OH-22817.',
    'ICD-10 J45.909',
    'ICD-10 Z57.2',
    'Custom Code OH-22817',
  ),
  nurse(
    'Asthma stable. ACQ 0.8. Step down discussed. Last attack 2023-05-02. ICD10 J45.30.',
    'ICD-10 J45.30',
  ),
  nurse(
    'Pt on salbutamol only, using > 3 times/week. Needs ICS. ASS-LVP9DILC-X1C4 reviewed.',
    'Assessment Code ASS-LVP9DILC-X1C4',
  ),
  nurse('Insurance form needs ICD-9: 493.20 (chronic obstructive asthma).', 'ICD-9 493.20'),
];

const LIPIDS: CorpusNote[] = [
  nurse(
    'Lipid panel: TC 6.8, LDL 4.6, HDL 1.0, TG 2.9 mmol/L. QRISK 14%. Started atorvastatin 20 mg. E78.5.',
    'ICD-10 E78.5',
  ),
  nurse(
    'Familial hypercholesterolaemia suspected, LDL 6.2. E78.01. Cascade testing for family.',
    'ICD-10 E78.01',
  ),
  nurse(
    'Statin myalgia on simvastatin 40 mg. CK 210. Switch to rosuvastatin 5 mg. E78.00.',
    'ICD-10 E78.00',
  ),
  nurse(
    'Mixed hyperlipidaemia E78.2, TG 5.6. Fenofibrate considered. Alcohol reduction advised.',
    'ICD-10 E78.2',
  ),
  nurse(
    'Lipids (LOINC 57698-3) repeated fasting. LDL (LOINC 13457-7) 2.9 on statin.',
    'LOINC 57698-3',
    'LOINC 13457-7',
  ),
  nurse(
    'Cholesterol 7.1 at pharmacy screening. Formal lipid panel booked, LAB-90211.',
    'Lab Code LAB-90211',
  ),
  nurse(
    'Hypertriglyceridaemia E78.1, TG 11.2 - pancreatitis risk. Urgent GP review.',
    'ICD-10 E78.1',
  ),
  nurse(
    'ICD-9 272.4 on the referral letter = hyperlipidaemia NOS. We use E78.5.',
    'ICD-9 272.4',
    'ICD-10 E78.5',
  ),
  nurse(
    'Pt stopped statin 3 months ago due to cost. Restarted atorvastatin 10 mg, MED-40017.',
    'Medication Code MED-40017',
  ),
  nurse(
    'Lipid clinic: ezetimibe 10 mg added. LDL target < 1.8. CPT 80061 lipid panel in 6/52.',
    'CPT 80061',
  ),
  nurse('Xanthelasma noted bilaterally. Check lipids. Cholesterol history unknown.'),
  nurse(
    'E78.5 with E11.9 and I10 - metabolic syndrome picture. Wt 104 kg, waist 118 cm.',
    'ICD-10 E78.5',
    'ICD-10 E11.9',
    'ICD-10 I10',
  ),
  nurse('SNOMED CT 55822004 |Hyperlipidemia| added to problem list.', 'SNOMED CT 55822004'),
  nurse(
    'Pt on statin, LFTs normal, CK normal. Continue. Total chol (2093-3) 4.1, HDL (2085-9) 1.3.',
    'LOINC 2093-3',
    'LOINC 2085-9',
  ),
  nurse('Dietary counselling for cholesterol. Oats, nuts, less red meat. Recheck in 3 months.'),
  nurse('Dx 272.0 per 2010 lipid clinic letter (pure hypercholesterolemia).', 'ICD-9 272.0'),
];

/** Numbers and letters that look like codes but are not: vitals, doses, dates, phones, places. */
const LOOK_ALIKES: CorpusNote[] = [
  nurse(
    'BP 120/80, HR 76, T 36.5, RR 14, SpO2 99%. Pt well, no complaints. Next visit 2024-06-18.',
  ),
  nurse('Called pt on 011-555-0123, no answer. Left message. Will retry tomorrow at 10:00.'),
  nurse(
    'Metformin 500 mg, amlodipine 10 mg, atorvastatin 40 mg, aspirin 81 mg. All taken as prescribed.',
  ),
  nurse(
    'Vitamin B12 injections monthly for pernicious anaemia; last dose 2024-05-02. Vitamin D 1000 IU daily.',
  ),
  nurse('Kessler K10 score 28 today (was 32). Mood improving. Continue sertraline 50 mg.'),
  nurse('X-ray report: T12 compression fracture, old. L1-L2 disc space narrowing. Analgesia.'),
  nurse('Pt in bed A14 of ward B. Transfer to room 210 tomorrow. Family informed.'),
  nurse(
    'COVID-19 vaccine booster given L deltoid, batch FK4512, lot 2345-7. No reaction after 15 min.',
  ),
  nurse('Glucose 250 mg/dL at 14:30, repeat 180 at 16:00. Insulin sliding scale per chart.'),
  nurse('Temp 38.4, pulse 104, BP 100/60. Sepsis screen negative. Oral fluids encouraged.'),
  nurse(
    'Pt brought empty pill bottles. Counted 30 tabs missing. Advised blister packs from pharmacy (tel 021 555 7788).',
  ),
  nurse('Coenzyme Q10 and omega-3 supplements taken OTC. Advised no proven benefit.'),
  nurse('HbA1c 7.2%, A1C target < 7. Discussed. G6PD normal.'),
  nurse('Height 172 cm, weight 88.0 kg, BMI 29.7. Waist 101 cm. Hip 104 cm.'),
  nurse('Steps goal 10,000 per day. Currently 4,500. Walking group on Tue/Thu.'),
  nurse('Flu vaccine given, 0.5 mL IM. Lot number AB1234. Next due April 2025.'),
  nurse('Pt travelling to Durban 2024-12-20 to 2025-01-10. Extra 30 days supply dispensed.'),
  nurse('Wound review: 3.5 x 2.0 x 0.5 cm, granulating. Silver dressing. Review 3/7.'),
  nurse('PHQ-9 score 14, GAD-7 score 11. Referred to counsellor. Safety plan in place.'),
  nurse('Smoking 10/day for 20 years = 10 pack-years. Wants to quit. NRT patch 21 mg.'),
  nurse('Pt fasting since 22:00 for bloods. Samples taken 07:45. Courier collected at 09:10.'),
  nurse('Blood sugar 101.5? Check meter calibration - likely 10.15 misread.'),
  nurse('ECG leads V1-V6 placed. Rhythm strip printed. Sinus.'),
  nurse(
    'Pt reports using 3 pillows at night, ankle oedema 2+. Weight up 2 kg in 3 days. Review by doctor today.',
  ),
  nurse('Nebuliser machine serial 44120-33 returned. Deposit refunded.'),
  nurse('Room 12, bed 3. Pt comfortable. Pain score 2/10.'),
  nurse('Appointment 2025-05-27 at 11:15 with Dr. Mokoena. Transport arranged. Ref 55218.'),
  nurse('Insulin Humulin R U-500, 20 units tds. Hypo kit given.'),
  nurse('Pt age 67, lives alone, independent ADLs. Daughter visits weekly. Falls risk low.'),
  nurse('ICD-10 coding to be completed by the doctor after review.'),
  nurse('Dx pending - awaiting bloods. Temp 37.9, HR 96.'),
  // A clinic card number that happens to have the 4-4-2 NDC shape: a known medium-level miss.
  nurse('Pt says the clinic card number is 1020-3344-55 but it is not on our system.'),
  nurse('Follow-up call 082-555-4410. Pt feeling better, cough settling.'),
  nurse('Wt 72.3 kg (LOINC body weight 29463-7 in the flow sheet).', 'LOINC 29463-7'),
  nurse('Peak flow 350 L/min pre, 410 post bronchodilator.'),
  nurse('Emergency contact: sister, 083 555 2291. GP: Dr Smith, 011 555 0198.'),
  nurse(
    'Gout M1A.0710? No - acute gout M10.9 in R toe. Uric acid 0.52.',
    'ICD-10 M1A.0710',
    'ICD-10 M10.9',
  ),
];

const DOCTOR_COMMENTS: CorpusNote[] = [
  doctor(
    'DM2',
    'Agree with nurse assessment. DM2 confirmed, E11.9. Start metformin 500 mg bd, titrate. Recheck HbA1c in 3 months.',
    'ICD-10 E11.9',
  ),
  doctor(
    'DM2',
    'Not convinced this is diabetes: single HbA1c 6.6%. Repeat before coding E11.9.',
    'ICD-10 E11.9',
  ),
  doctor(
    'Hypertension',
    'Hypertension stage 2, I10. Add indapamide 1.5 mg. Home BP monitoring. Review 4/52.',
    'ICD-10 I10',
  ),
  doctor(
    'Hypertension',
    'Disagree - white coat effect likely; ABPM average 128/79. Do not code I10.',
    'ICD-10 I10',
  ),
  doctor(
    'HIV',
    'HIV confirmed with 2nd assay. B20. Start TLD today, baseline bloods done (LAB-66102).',
    'ICD-10 B20',
    'Lab Code LAB-66102',
  ),
  doctor(
    'TB',
    'TB unlikely: CXR clear, Xpert negative x2. Remove A15.0 from the problem list.',
    'ICD-10 A15.0',
  ),
  doctor(
    'Asthma',
    'Asthma J45.909 confirmed on reversibility 18%. ICS/LABA started.',
    'ICD-10 J45.909',
  ),
  doctor(
    'Hyperlipidaemia',
    'Lipids: LDL 5.1 on two checks. E78.00 pure hypercholesterolaemia. Atorvastatin 40 mg.',
    'ICD-10 E78.00',
  ),
  doctor(
    'DM2',
    'Reviewed ASS-LR62PLS0-7F2A. Risk scores appropriate. Sign off.',
    'Assessment Code ASS-LR62PLS0-7F2A',
  ),
  doctor(
    'DM2',
    'HbA1c (4548-4) 8.4%: uncontrolled. Add gliclazide 40 mg. Code E11.65.',
    'LOINC 4548-4',
    'ICD-10 E11.65',
  ),
  doctor('HIV', 'Agree. No further action. Continue current management.'),
  doctor(
    'Hypertension',
    'BP control good on 2 agents. I10 stable. Review annually. CPT 99214 for this visit.',
    'ICD-10 I10',
    'CPT 99214',
  ),
  doctor(
    'HIV',
    'Viral load 1500 copies on TLD - check adherence and resistance test. B20 remains.',
    'ICD-10 B20',
  ),
  doctor('TB', 'Treat as presumptive TB A16.2 pending culture; start HRZE today.', 'ICD-10 A16.2'),
  doctor(
    'Asthma',
    'Nocturnal asthma symptoms: step up to MART. J45.41 (moderate persistent with exacerbation).',
    'ICD-10 J45.41',
  ),
  doctor(
    'Hyperlipidaemia',
    'Hyperlipidaemia secondary to hypothyroidism? TSH 9.8. Code E78.5 and E03.9, treat thyroid first.',
    'ICD-10 E78.5',
    'ICD-10 E03.9',
  ),
  doctor(
    'DM2',
    'Agree with nurse - DM2 and HTN, E11.9 / I10. Add ACE-I for renal protection. ASS-LXK3ZW2O-B7RT.',
    'ICD-10 E11.9',
    'ICD-10 I10',
    'Assessment Code ASS-LXK3ZW2O-B7RT',
  ),
  doctor(
    'DM2',
    'Legacy dx codes 250.00 and 401.9 transferred. Current: E11.9, I10.',
    'ICD-9 250.00',
    'ICD-9 401.9',
    'ICD-10 E11.9',
    'ICD-10 I10',
  ),
  doctor(
    'TB',
    'Patient has HIV and TB co-infection: B20 + A15.0. TB Rx first, ART within 2 weeks (CD4 90).',
    'ICD-10 B20',
    'ICD-10 A15.0',
  ),
  doctor(
    'Hypertension',
    'Hypertensive CKD with heart failure I13.0. Cardiology referral REF-40318.',
    'ICD-10 I13.0',
    'Custom Code REF-40318',
  ),
  doctor(
    'Asthma',
    'I disagree with the asthma risk: symptoms fit GERD (K21.9). No asthma code.',
    'ICD-10 K21.9',
  ),
  doctor(
    'DM2',
    'Insulin initiation: basal glargine 10 U. E11.65, Z79.4. NDC 0088-2220-33 Lantus vial.',
    'ICD-10 E11.65',
    'ICD-10 Z79.4',
    'NDC 0088-2220-33',
  ),
  doctor(
    'TB',
    'TB contact with positive IGRA: LTBI Z22.7, start isoniazid 300 mg x 6 months.',
    'ICD-10 Z22.7',
  ),
  doctor(
    'DM2',
    'Review of SNOMED CT 73211009 |Diabetes mellitus| entry: should be 44054006 |Type 2 diabetes mellitus|.',
    'SNOMED CT 73211009',
    'SNOMED CT 44054006',
  ),
  doctor(
    'Asthma',
    'Dx: 493.90 (ICD-9) in the old record means asthma, unspecified. Use J45.909.',
    'ICD-9 493.90',
    'ICD-10 J45.909',
  ),
  doctor(
    'Hyperlipidaemia',
    'Statin intolerance documented (Z91.14?). Try ezetimibe.',
    'ICD-10 Z91.14',
  ),
  doctor('HIV', 'Agree. HIV negative today; PrEP continue. No code.'),
  doctor(
    'Hypertension',
    'BP readings 150/95, 148/92, 152/96 - sustained. Hypertension confirmed, I10. ASS-M3E60EG0-9HJ3.',
    'ICD-10 I10',
    'Assessment Code ASS-M3E60EG0-9HJ3',
  ),
  doctor(
    'TB',
    'TB treatment completed and cured. Z86.11. Discharge from TB clinic.',
    'ICD-10 Z86.11',
  ),
  doctor(
    'DM2',
    'MRN 00458812: discussed at MDT. Plan as per nurse note.',
    'Patient ID MRN 00458812',
  ),
  doctor(
    'Asthma',
    'Asthma: not diagnosed - symptoms resolved after URTI. J06.9 was the likely cause.',
    'ICD-10 J06.9',
  ),
  doctor(
    'Hyperlipidaemia',
    'CPT 99213 - follow-up visit. E78.5 stable on statin, LDL 2.1.',
    'CPT 99213',
    'ICD-10 E78.5',
  ),
  doctor(
    'HIV',
    'Cotrimoxazole prophylaxis (MED-11873) continue until CD4 > 350.',
    'Medication Code MED-11873',
  ),
  doctor(
    'Hyperlipidaemia',
    'Hyperlipidaemia: patient declined statin. Documented informed refusal Z53.20.',
    'ICD-10 Z53.20',
  ),
  doctor(
    'DM2',
    'Type 2 diabetes with diabetic nephropathy (E11.21). ACR 38. Start SGLT2 inhibitor.',
    'ICD-10 E11.21',
  ),
  doctor(
    'DM2',
    'The typed code ASS-LTSGK4W0-3M8 in the nurse note is missing a character; should be ASS-LTSGK4W0-3M8P.',
    'Assessment Code ASS-LTSGK4W0-3M8 @low',
    'Assessment Code ASS-LTSGK4W0-3M8P',
  ),
  doctor('DM2', 'ICD-10-CM E11.9; ICD-9-CM 250.00.', 'ICD-10 E11.9', 'ICD-9 250.00'),
  doctor(
    'DM2',
    'Coded DM2 as E11.9 and HTN as I10; remove the duplicate E11.9 entry.',
    'ICD-10 E11.9',
    'ICD-10 I10',
    'ICD-10 E11.9',
  ),
  doctor(
    'Hypertension',
    'Hypertensive urgency resolved. Amlodipine 10 mg. HR 70, BP 138/84. I16.0 closed.',
    'ICD-10 I16.0',
  ),
  doctor(
    'HIV',
    'Pre-exposure prophylaxis renewed, creatinine clearance 95 mL/min. Z79.899 PrEP.',
    'ICD-10 Z79.899',
  ),
];

/** Pasted lab results, billing summaries, pharmacy and admin text. */
const RECORDS: CorpusNote[] = [
  nurse(
    `LAB RESULTS (LAB-20240920-0117)
Glucose, fasting  7.9 mmol/L   [1558-6]
HbA1c             8.1 %        [4548-4]
Creatinine        96 umol/L    [2160-0]
eGFR              71           [33914-3]`,
    'Lab Code LAB-20240920-0117',
    'LOINC 1558-6',
    'LOINC 4548-4',
    'LOINC 2160-0',
    'LOINC 33914-3',
  ),
  nurse(
    `Billing summary
CPT: 99214, 83036, 80061, 36415
ICD-10: E11.65, E78.5, I10`,
    'CPT 99214',
    'CPT 83036',
    'CPT 80061',
    'CPT 36415',
    'ICD-10 E11.65',
    'ICD-10 E78.5',
    'ICD-10 I10',
  ),
  nurse(
    'Dispensed: metformin 500 mg x 60 (NDC 00093-1048-01), atorvastatin 20 mg x 30 (NDC 0071-0155-23).',
    'NDC 00093-1048-01',
    'NDC 0071-0155-23',
  ),
  nurse(
    'Scanned referral: patient PID-010233, MRN 8812004, seen at clinic for DM2 (E11.9).',
    'Patient ID PID-010233',
    'Patient ID MRN 8812004',
    'ICD-10 E11.9',
  ),
  nurse(
    'Problem list export: E11.9 | I10 | E78.5 | J45.909 | Z72.0',
    'ICD-10 E11.9',
    'ICD-10 I10',
    'ICD-10 E78.5',
    'ICD-10 J45.909',
    'ICD-10 Z72.0',
  ),
  nurse(
    'Lab order LAB-A1C-2291 and LAB-LIPID-2292 placed for next visit.',
    'Lab Code LAB-A1C-2291',
    'Lab Code LAB-LIPID-2292',
  ),
  nurse(
    'Transfer letter: Hosp no. 6672019. Diagnoses: I10, E11.22, N18.4.',
    'Patient ID Hospital No 6672019',
    'ICD-10 I10',
    'ICD-10 E11.22',
    'ICD-10 N18.4',
  ),
  nurse(
    'Spirometry codes CPT 94010 and 94060 (pre/post). FEV1/FVC 0.64.',
    'CPT 94010',
    'CPT 94060',
  ),
  nurse(
    'Pharmacy note: RX-2024-00871 dispensed, 5-3-2 NDC 50090-123-01? check with supplier.',
    'Medication Code RX-2024-00871',
    'NDC 50090-123-01',
  ),
  nurse(
    'Care plan CP-00412 updated; HbA1c target 7%, BP < 140/90, LDL < 2.6.',
    'Custom Code CP-00412',
  ),
  nurse(
    'Vaccination record: influenza (CPT 90686) and pneumococcal (CPT 90732) given. Lot 2345-7 and K43882.',
    'CPT 90686',
    'CPT 90732',
  ),
  nurse(
    'Diabetes education group, session 2 of 4. 12 participants. Handouts DM-ED-04 given.',
    'Custom Code DM-ED-04',
  ),
  nurse(
    'Screening: HIV neg, TB screen neg, BP 126/80, RBS 5.9. ICD-10 Z13.1, Z11.4, Z11.1.',
    'ICD-10 Z13.1',
    'ICD-10 Z11.4',
    'ICD-10 Z11.1',
  ),
  nurse(
    'Note for ASS-M66GMEAO-T4N8: weight and height re-measured, BMI corrected from 35.2 to 32.5.',
    'Assessment Code ASS-M66GMEAO-T4N8',
  ),
  nurse(
    'HIV VL (LOINC 20447-9): 45 copies/mL. CD4 (LOINC 24467-3): 520 cells/uL.',
    'LOINC 20447-9',
    'LOINC 24467-3',
  ),
  nurse(
    'SCTID 44054006 mapped to ICD-10 E11.9 for reporting.',
    'SNOMED CT 44054006',
    'ICD-10 E11.9',
  ),
  nurse(
    'Medication list: RX-10021 metformin, RX-10022 amlodipine, MED-551 aspirin.',
    'Medication Code RX-10021',
    'Medication Code RX-10022',
    'Medication Code MED-551',
  ),
  nurse("Pt's hospital number MRN: 0044781, ward 7, bed D14.", 'Patient ID MRN 0044781'),
  nurse('Insulin pen needles NDC 08290-3204-02 ordered.', 'NDC 08290-3204-02'),
  nurse("Pt's ICD9 code list: 401.1, 250.40, 585.3.", 'ICD-9 401.1', 'ICD-9 250.40', 'ICD-9 585.3'),
  nurse(
    'Billing export (no dots): ICD-10 E119, I10, E785.',
    'ICD-10 E119',
    'ICD-10 I10',
    'ICD-10 E785',
  ),
  nurse(
    'Follow-up for ASS-MB6NA79C-M6QA and ASS-MCUE0WDC-R8S1 merged into one record.',
    'Assessment Code ASS-MB6NA79C-M6QA',
    'Assessment Code ASS-MCUE0WDC-R8S1',
  ),
];

/** Mistyped codes: the checks should lower (high, medium) or drop (low) them. */
const TYPOS: CorpusNote[] = [
  nurse(
    'ICD-10 K99.8 written on the form - no such category; asked clerk to recheck.',
    'ICD-10 K99.8 @low',
  ),
  nurse('LOINC 4548-5 on lab request looks wrong (HbA1c is 4548-4).', 'LOINC 4548-4'),
  nurse(
    'NDC 1234-567-89 on the bottle label is incomplete; pharmacy to confirm.',
    'NDC 1234-567-89 @low',
  ),
  nurse(
    'SNOMED CT 44054007 in the referral has a wrong check digit - the right code is 44054006.',
    'SNOMED CT 44054006',
  ),
  nurse(
    'Old chart lists ICD-9 000.9 which is not valid; probably 250.00 (DM2).',
    'ICD-9 000.9 @low',
    'ICD-9 250.00',
  ),
];

export const CORPUS: readonly CorpusNote[] = [
  ...DIABETES,
  ...HYPERTENSION,
  ...HIV,
  ...TUBERCULOSIS,
  ...ASTHMA,
  ...LIPIDS,
  ...LOOK_ALIKES,
  ...DOCTOR_COMMENTS,
  ...RECORDS,
  ...TYPOS,
];

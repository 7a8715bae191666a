/**
 * Assessment bodies at each risk level, for tests of what follows the level (the worklists, a
 * patient's follow-up).
 */

/** DM2 at High (thirst, family history, BMI over 25) and Hyperlipidaemia at Moderate. */
export const highRiskBody = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { smoking: false, familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
};
/** DM2 at Moderate only. */
export const moderateRiskBody = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 60 },
  riskFactors: { smoking: false, familyHistory: { DM2: true } },
};
/** Every condition Low. */
export const lowRiskBody = {
  demographics: { age: 30, gender: 'Female', height: 165, weight: 60 },
  riskFactors: {},
};

/** The service types: one vocabulary for AppCMS › Service and Monetization › Models (issue 27). */
import { describe, expect, it } from 'vitest';
import { mainServiceType, SERVICE_TYPE_LABELS, SERVICE_TYPES, serviceTypeLabel, validateService } from './appcms';
import { MONETIZATION_MESSAGES, validateSettings } from './monetization-rules';

describe('service types', () => {
  it('names every type for an operator, once', () => {
    expect(Object.keys(SERVICE_TYPE_LABELS)).toEqual([...SERVICE_TYPES]);
    expect(serviceTypeLabel('FAST')).toBe('Free ad-supported TV (FAST)');
    expect(serviceTypeLabel('OTHER')).toBe('OTHER');
  });

  it('keeps the main type while it is listed, else takes the first remaining one in SERVICE_TYPES order', () => {
    expect(mainServiceType('AVOD', ['SVOD', 'AVOD'])).toBe('AVOD');
    expect(mainServiceType('SVOD', ['FAST', 'TVOD'])).toBe('TVOD');
    expect(mainServiceType('SVOD', ['FAST', 'AVOD'])).toBe('AVOD');
  });

  it('gives the Models editor the service types as its vocabulary, at least one, monetization on or off', () => {
    expect(validateSettings({ isMonetizationModelEnabled: true, models: ['SVOD', 'FAST'] })).toEqual({});
    expect(validateSettings({ isMonetizationModelEnabled: false, models: [] })).toEqual({ models: MONETIZATION_MESSAGES.modelsRequired });
    expect(validateSettings({ isMonetizationModelEnabled: true, models: ['subscription'] })).toEqual({ models: MONETIZATION_MESSAGES.modelUnknown });
    expect(validateService({ serviceType: 'SVOD', serviceTypes: [] })).toHaveProperty('serviceTypes');
  });
});

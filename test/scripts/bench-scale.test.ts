import { describe, expect, it } from 'vitest';
import { evenSample, scaleSizes } from '../../scripts/bench-scale.ts';

describe('scaleSizes', () => {
  it('defaults to 6,250, 25,000 and 100,000 subjects', () => {
    expect(scaleSizes(undefined)).toEqual([6250, 25_000, 100_000]);
    expect(scaleSizes(' ')).toEqual([6250, 25_000, 100_000]);
  });

  it('reads a comma-separated list, sorted, without repeats', () => {
    expect(scaleSizes('25000, 6_250,25000')).toEqual([6250, 25_000]);
  });

  it('says what is wrong with anything but positive whole numbers', () => {
    expect(scaleSizes('100,ten')).toBe('BENCH_SCALE_SIZES must be positive whole numbers separated by commas, such as "6250,25000,100000" (got "100,ten").');
    expect(scaleSizes('0')).toBe('BENCH_SCALE_SIZES must be positive whole numbers separated by commas, such as "6250,25000,100000" (got "0").');
    expect(scaleSizes('1.5')).toBe('BENCH_SCALE_SIZES must be positive whole numbers separated by commas, such as "6250,25000,100000" (got "1.5").');
  });
});

describe('evenSample', () => {
  it('takes exactly the count asked for, spread evenly over the pages', () => {
    expect(evenSample(10, 5)).toEqual([1, 3, 5, 7, 9]);
    expect(evenSample(10, 3)).toEqual([3, 6, 9]);
    expect(evenSample(7425, 6250)).toHaveLength(6250);
    expect(evenSample(4, 4)).toEqual([0, 1, 2, 3]);
    expect(evenSample(4, 0)).toEqual([]);
  });
});

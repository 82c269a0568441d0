/**
 * One generated person of each generated household, in order, for the small evaluation
 * populations (name forms, address forms) that regroup people into households of their own: no
 * two of their households then share an address by accident.
 */
import { generatePeople, type GeneratedPerson } from './people.js';

/** A function that gives the next household's first person; throws once `count` people ran out. */
export function householdHeads(options: { count: number; seed: string; today: string; what: string }): () => GeneratedPerson {
  const source = generatePeople({ count: options.count, seed: options.seed, today: options.today, activity: false });
  let lastHousehold = '';
  return () => {
    // Not for…of: leaving it would close the generator.
    for (let step = source.next(); step.done !== true; step = source.next()) {
      if (step.value.truth.householdId === lastHousehold) continue;
      lastHousehold = step.value.truth.householdId;
      return step.value;
    }
    throw new Error(`the ${options.what} households ran out of generated people`);
  };
}

/**
 * The simulated carrier's plan of a journey (spec: States and transitions >
 * Shipment status, Stock): from collection to the first attempt and its
 * outcome by scenario, and the plan after a stock's instructions. Pure: every
 * instant comes from the journey, the zone's transit days and a hash-based
 * jitter, so the same shipment always takes the same path.
 */
import { fnv1a } from '../../../shared/domain/random';
import type { StockActionRequest, StockOutcome } from '../../../shared/platform/tracking';
import { addDays, localDate } from '../time';
import { addWorkingDays, localInstant, nextWorkingDay } from '../workdays';
import { zoneOf } from '../zones';
import { placeOf, plus, type Effect, type Journey, type Step, type StockRecord } from './journey';
import { STOCK_REASONS, TRANSIT_DAYS } from './scenarios';

/** Deterministic minutes in `0..span-1` for one step of a journey (`salt` names the step; a new dossier changes it). */
export function jitter(j: Journey, salt: string, span: number): number {
  return fnv1a(`${j.shipment.trackingNumber}:${salt}:${j.dossiers}`) % span;
}

/** Collection, departure, customs (outside the EU), arrival, out for delivery, then the first attempt's outcome. */
export function transitPlan(j: Journey, pickup: Date): Step[] {
  const s = j.shipment;
  const origin = placeOf(s.sender.address);
  const dest = placeOf(s.recipient.address);
  const steps: Step[] = [{ at: pickup, statusCode: s.statusCode, description: 'Spedizione ritirata dal corriere', location: origin, effects: [{ kind: 'pickup' }] }];
  const departed = plus(pickup, 120 + jitter(j, 'departed', 121));
  steps.push({ at: departed, statusCode: 3, description: `In transito: partita dalla filiale di ${origin}`, location: origin, effects: [] });
  const deliveryDay = addWorkingDays(localDate(departed), TRANSIT_DAYS[s.zone]);
  if (s.zone === 'europe_non_eu' || s.zone === 'world') {
    const customsAt = localInstant(addDays(localDate(departed), 2), 11, jitter(j, 'customs', 60));
    steps.push({ at: customsAt, statusCode: 3, description: 'Sdoganamento completato', location: `DOGANA (${s.recipient.address.countryCode.toUpperCase()})`, effects: [] });
  }
  steps.push(...deliveryDaySteps(j, deliveryDay, dest, 'first'));
  return steps;
}

/** Arrival at the depot, out for delivery and the attempt's outcome on `day` at `place`. */
function deliveryDaySteps(j: Journey, day: string, place: string, mode: 'first' | 'release', arrival = true, ofdText = 'In consegna'): Step[] {
  const steps: Step[] = [];
  if (arrival) {
    steps.push({ at: localInstant(day, 6, jitter(j, `arrival:${day}`, 46)), statusCode: 3, description: 'Arrivata alla filiale di destinazione', location: place, effects: [] });
  }
  const ofd = localInstant(day, 8, jitter(j, `ofd:${day}`, 91));
  steps.push({ at: ofd, statusCode: 4, description: ofdText, location: place, effects: [] });
  const attempt = plus(ofd, 90 + jitter(j, `attempt:${day}`, 301));
  return [...steps, ...outcome(j, attempt, place, mode)];
}

/** What happens at a delivery attempt. After a release only `held_twice` fails again (the second dossier). */
function outcome(j: Journey, at: Date, place: string, mode: 'first' | 'release'): Step[] {
  const s = j.shipment;
  const delivered: Step = { at, statusCode: 5, description: 'Consegnata', location: place, effects: [{ kind: 'delivered' }] };
  const day = localDate(at);
  if (mode === 'release') {
    return j.scenario === 'held_twice' && j.dossiers === 1 ? heldSteps(j, at, place) : [delivered];
  }
  switch (j.scenario) {
    case 'delivered':
      return [delivered];
    case 'second_attempt': {
      const next = nextWorkingDay(day);
      return [
        { at, statusCode: 8, description: 'Mancata consegna: destinatario assente, avviso di passaggio lasciato', location: place, effects: [] },
        ...deliveryDaySteps(j, next, place, 'release', false, 'In consegna (secondo tentativo)').map((x) => (x.statusCode === 5 ? { ...x, description: 'Consegnata al secondo tentativo' } : x)),
      ];
    }
    case 'held':
    case 'held_twice':
      return heldSteps(j, at, place);
    case 'awaiting_collection': {
      const collected = localInstant(addWorkingDays(day, 1 + jitter(j, 'collect', 3)), 10, jitter(j, 'collect-min', 120));
      return [
        { at, statusCode: 8, description: 'Mancata consegna: destinatario assente', location: place, effects: [] },
        { at: localInstant(day, 17, 30), statusCode: 10, description: `In attesa di ritiro presso il punto di ritiro di ${place}`, location: place, effects: [] },
        { at: collected, statusCode: 5, description: 'Ritirata dal destinatario presso il punto di ritiro', location: place, effects: [{ kind: 'delivered' }] },
      ];
    }
    case 'refused': {
      const leave = nextWorkingDay(day);
      const back = addWorkingDays(leave, TRANSIT_DAYS[s.zone]);
      return [
        { at, statusCode: 8, description: 'Mancata consegna: spedizione rifiutata dal destinatario', location: place, effects: [] },
        { at: localInstant(leave, 9, jitter(j, 'return', 60)), statusCode: 7, description: 'Rifiutata: in restituzione al mittente', location: place, effects: [] },
        { at: localInstant(back, 11, jitter(j, 'back', 60)), statusCode: 7, description: 'Riconsegnata al mittente', location: placeOf(s.sender.address), effects: [] },
      ];
    }
  }
}

/** Failed attempt, then the stock opens the next working morning. */
function heldSteps(j: Journey, at: Date, place: string): Step[] {
  const reason = STOCK_REASONS[fnv1a(`${j.carrierTrackingNumber}:reason:${j.dossiers}`) % STOCK_REASONS.length] ?? STOCK_REASONS[0];
  if (!reason) return [];
  const openAt = localInstant(nextWorkingDay(localDate(at)), 7, 30 + jitter(j, 'stock', 30));
  return [
    { at, statusCode: 8, description: `Mancata consegna: ${reason.description.toLowerCase()}`, location: place, effects: [] },
    { at: openAt, statusCode: 6, description: `In giacenza presso la filiale di ${place}: ${reason.description.toLowerCase()}`, location: place, effects: [{ kind: 'open_stock', reason, location: place }] },
  ];
}

/** The carrier's plan once it has the instructions; the stock closes when the parcel is released (or collected). */
export function releasePlan(j: Journey, st: StockRecord, req: StockActionRequest, day: string, newTrackingNumber: (prefix: string) => string): Step[] {
  const s = j.shipment;
  const place = st.location;
  const origin = placeOf(s.sender.address);
  const close = (outcome: StockOutcome): Effect => ({ kind: 'close_stock', outcome });
  switch (req.action) {
    case 'redeliver': {
      const steps = deliveryDaySteps(j, day, place, 'release', false, 'In consegna su disposizione del mittente');
      const first = steps[0];
      if (first) first.effects.push(close('released'));
      return steps;
    }
    case 'redeliver_to_address': {
      const a = req.address;
      const newPlace = placeOf(a);
      const trackingNumber = newTrackingNumber(s.trackingNumber.slice(0, 2));
      const zone = zoneOf(a.countryCode, a.postalCode, a.province);
      const leave = localInstant(day, 9, jitter(j, 'redirect', 60));
      const deliveryDay = addWorkingDays(day, TRANSIT_DAYS[zone]);
      return [
        {
          at: leave,
          statusCode: 3,
          description: `Riaffidata con nuova LDV ${trackingNumber}: consegna al nuovo indirizzo (${newPlace})`,
          location: place,
          effects: [{ kind: 'reissue', trackingNumber }, close('released')],
        },
        ...deliveryDaySteps(j, deliveryDay, newPlace, 'release'),
      ];
    }
    case 'hold_for_collection': {
      const collected = localInstant(addWorkingDays(day, 1 + jitter(j, 'collect', 3)), 10, jitter(j, 'collect-min', 120));
      return [
        { at: localInstant(day, 9, 0), statusCode: 10, description: `In attesa di ritiro presso la filiale di ${place} su disposizione del mittente`, location: place, effects: [] },
        { at: collected, statusCode: 5, description: 'Ritirata dal destinatario in filiale', location: place, effects: [{ kind: 'delivered' }, close('delivered')] },
      ];
    }
    case 'return_to_sender': {
      const back = addWorkingDays(day, TRANSIT_DAYS[s.zone]);
      return [
        { at: localInstant(day, 9, jitter(j, 'return', 60)), statusCode: 7, description: 'In restituzione al mittente su disposizione', location: place, effects: [close('returned')] },
        { at: localInstant(back, 11, jitter(j, 'back', 60)), statusCode: 7, description: 'Riconsegnata al mittente', location: origin, effects: [] },
      ];
    }
  }
}

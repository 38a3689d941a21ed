/**
 * Small lecture notes for organization tests: two about photosynthesis (related sources) and one
 * about medieval castles (unrelated to them).
 */

export const LIGHT_REACTIONS = `# Light Reactions of Photosynthesis

## Capturing light
Photosynthesis begins when chlorophyll molecules in the thylakoid membranes of the chloroplast absorb light.
Chlorophyll absorbs red and blue light strongly and reflects green light, which is why leaves look green.
The absorbed light energy excites electrons in photosystem II to a higher energy level.

## Splitting water
To replace its lost electrons, photosystem II splits water molecules into oxygen, protons and electrons.
The oxygen released by photosynthesis comes from water, not from carbon dioxide.
This water splitting happens in the oxygen-evolving complex on the lumen side of the thylakoid membrane.

## The electron transport chain
Excited electrons travel along an electron transport chain from photosystem II to photosystem I.
As electrons move through the cytochrome complex, protons are pumped into the thylakoid lumen.
The proton gradient across the thylakoid membrane drives ATP synthase, which makes ATP from ADP.
Photosystem I absorbs more light and passes energised electrons to ferredoxin and then to NADP reductase.
NADP reductase produces NADPH, which carries high-energy electrons to the Calvin cycle.

## Products of the light reactions
The light reactions of photosynthesis produce ATP, NADPH and oxygen.
ATP and NADPH made in the chloroplast power the fixation of carbon dioxide in the stroma.
Without light the thylakoid reactions stop, and the chloroplast soon runs out of ATP and NADPH.
`;

export const CALVIN_CYCLE = `# The Calvin Cycle and Carbon Fixation

## Where the cycle runs
The Calvin cycle of photosynthesis takes place in the stroma of the chloroplast.
It uses the ATP and NADPH made by the light reactions in the thylakoid membranes.
Because it does not use light directly, it is sometimes called the light-independent stage of photosynthesis.

## Carbon fixation by Rubisco
The enzyme Rubisco attaches carbon dioxide to ribulose bisphosphate, a five-carbon sugar.
Rubisco is probably the most abundant protein on Earth, because every chloroplast needs so much of it.
The unstable six-carbon product splits at once into two molecules of 3-phosphoglycerate.

## Reduction
ATP and NADPH from the light reactions convert 3-phosphoglycerate into glyceraldehyde 3-phosphate.
Glyceraldehyde 3-phosphate is the sugar that the chloroplast exports to make glucose and sucrose.
For every three molecules of carbon dioxide fixed, one molecule of glyceraldehyde 3-phosphate leaves the cycle.

## Regeneration
The remaining glyceraldehyde 3-phosphate is rearranged, using more ATP, to regenerate ribulose bisphosphate.
Regeneration lets the chloroplast keep fixing carbon dioxide as long as light reactions supply ATP and NADPH.
Photorespiration happens when Rubisco binds oxygen instead of carbon dioxide, wasting energy in hot, dry conditions.
`;

export const CASTLES = `# Medieval Castles

## Motte and bailey
The first Norman castles in England were motte-and-bailey castles built of earth and timber.
A motte was a steep mound topped by a wooden tower, and the bailey was a fenced courtyard below it.
William the Conqueror ordered dozens of them after 1066 to hold down the conquered countryside.

## Stone keeps
Within a few decades the wooden towers were replaced by stone keeps with thick walls.
The Tower of London's White Tower is a famous square keep begun in the 1070s.
Stone keeps were hard to burn, but their square corners could be undermined by sappers digging tunnels.

## Concentric defences
Crusaders brought back ideas from Byzantine and Arab fortifications in the Levant.
Concentric castles such as Beaumaris have an inner ring of high walls inside a lower outer ring.
Archers on the inner walls could shoot over the outer walls at attackers trapped between them.

## Sieges
A siege could last months while the garrison ate stored grain and drew water from a well in the courtyard.
Attackers used trebuchets to hurl stones, and battering rams protected by a wooden roof against the gatehouse.
The drawbridge, portcullis and murder holes made the gatehouse the strongest point of the castle.
`;

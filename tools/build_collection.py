"""Build the additions to the course's water-management test collection.

The committed files of ``coursekit/data/collection/`` are the source of truth; this script is
how topics 13-54, documents W064-W250 and their judgments were written into them, and how the
depth-20 pool was checked. The first 63 documents, the first 12 topics and their 124 judgments
(the collection's first version) are kept byte for byte; the script checks that they are.

    .venv/bin/python tools/build_collection.py --base DIR   # rebuild from the first version in DIR
    .venv/bin/python tools/build_collection.py              # the same, on the committed files
    .venv/bin/python tools/build_collection.py --pool       # list pooled pairs still unjudged

Building writes ``documents.trec``, ``topics.trec`` and ``qrels.txt`` and regenerates the five
runs with :func:`coursekit.course.collection.make_runs`.

Judgments, 0-3 for topics 13-54 (0 not relevant, 1 marginally, 2 relevant, 3 highly relevant),
0-2 for topics 1-12 (the scale of their first judgments: 0 not relevant, 1 partly, 2 relevant):

* ``DOCUMENTS`` holds, with each document, the grades its author gave it while writing it, for
  the topics it was written for or obviously touches, read against each topic's narrative;
* ``POOL`` holds the grades given afterwards to every other (topic, document) pair in the top 20
  of any run, and to the pairs the author went back to for a topic's recall; a pair is judged
  once, from the narrative (topics 13-54) or the description (topics 1-12).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.course import collection  # noqa: E402

HERE = collection.HERE
POOL_DEPTH = 20

# SHA-256 of the first version's parts, as this script extracts them (see _digest): documents
# W001-W063, topics 1-12, and the 124 qrels lines of coursekit at commit 9e6acaa.
FIRST_VERSION = {
    "documents": "cfb0a297997291427315708e1b40a9b90910a4d967a357ba279fdf2075e2f7dc",
    "topics": "9ef84cd290f4d0739d19212009a0f1e6d4192138e54bb513425cff2486e61959",
    "qrels": "b6d63db2618b7b2ed29f4dfd3cc4d763ca079daeb6b0b5e94048d31b7061a9b5",
}

#: (number, title, description, narrative) of the topics added to the first version's 12
TOPICS: list[tuple[int, str, str, str]] = [
    (
        13,
        "desalination energy use",
        (
            "How much energy does desalination of sea or brackish water need, and how are its "
            "energy use and cost reduced?"
        ),
        (
            "Highly relevant (3): the main subject is the energy use or energy cost of "
            "desalination, or a concrete way of reducing it (energy recovery, better membranes, "
            "renewable power for the plant). Relevant (2): a document on a desalination plant or "
            "process that gives some specific information on its energy use, power source or cost."
            " Marginally relevant (1): desalination is discussed or mentioned without information "
            "on energy or cost (for example only its brine). Not relevant (0): energy use "
            "elsewhere in the water sector, such as pumping or sewage works."
        ),
    ),
    (
        14,
        "brine disposal",
        (
            "What is done with the concentrated brine left by desalination, and what are its "
            "effects on the sea or on land?"
        ),
        (
            "Highly relevant (3): the main subject is the disposal of desalination brine (reject "
            "water, concentrate), its effects on marine life or soils, or ways of reducing them "
            "(diffusers, dilution, evaporation ponds, recovery of salts). Relevant (2): disposal "
            "of brine from other activities (salt caverns, mines), or a desalination document that"
            " says something specific about its brine discharge. Marginally relevant (1): a "
            "document that only mentions that desalination leaves brine. Not relevant (0): other "
            "salty water, such as road salt, saltwater intrusion or saline soils."
        ),
    ),
    (
        15,
        "water main leak detection",
        (
            "How are leaks in drinking water distribution pipes found, and how do utilities reduce"
            " the water lost from their networks?"
        ),
        (
            "Highly relevant (3): the main subject is a method of detecting or locating leaks in "
            "water mains (listening, correlators, metered districts and night flows, satellite "
            "images). Relevant (2): water losses (non-revenue water) in distribution networks and "
            "measures against them, such as pressure management or pipe replacement, or leak "
            "detection described with specifics within another subject. Marginally relevant (1): "
            "leaks or bursts of water pipes mentioned in passing, or leaks on the customer's side "
            "of the meter. Not relevant (0): seepage from canals, dams or sewers, and leaks of "
            "anything other than water."
        ),
    ),
    (
        16,
        "household water tariffs",
        (
            "How do utilities set the price households pay for water, and how do tariffs affect "
            "water use and affordability?"
        ),
        (
            "Highly relevant (3): the main subject is the design of household water tariffs "
            "(increasing blocks, fixed and volumetric charges, social tariffs) or their effect on "
            "consumption or affordability. Relevant (2): household water bills or prices described"
            " with specifics within another subject, such as what metering or a tariff change does"
            " to them. Marginally relevant (1): the price of water mentioned in passing, or prices"
            " paid only by farmers or industry. Not relevant (0): the cost of building or running "
            "water systems with nothing on what users pay."
        ),
    ),
    (
        17,
        "water rights allocation",
        (
            "How is the right to take water from rivers and aquifers shared among users by law or "
            "administration?"
        ),
        (
            "Highly relevant (3): the main subject is a system of water rights or abstraction "
            "licences (prior appropriation, riparian rights, permits, caps, tradable entitlements)"
            " or how rights are cut in a shortage. Relevant (2): court cases over the water rights"
            " of users within a country, rules that cut abstraction to protect rivers, or "
            "abstraction licences described with specifics within another subject. Marginally "
            "relevant (1): water rights or licences mentioned in passing, or the sharing of a "
            "river between states by treaty. Not relevant (0): permits to discharge wastewater, "
            "trade in crops."
        ),
    ),
    (
        18,
        "activated sludge treatment",
        (
            "How does the activated sludge process treat sewage, and what are its variants and "
            "problems?"
        ),
        (
            "Highly relevant (3): the main subject is how the activated sludge process or a "
            "variant works (aerated tanks of bacterial flocs, settling and return of sludge, "
            "biological nitrogen removal, membrane bioreactors). Relevant (2): the operation or "
            "problems of the aeration stage (energy use, bulking, foaming), an overview of the "
            "stages of a sewage works that includes a biological stage, or activated sludge "
            "explained within another subject. Marginally relevant (1): other ways of treating "
            "sewage (reed beds, septic tanks, ponds, digestion of sludge) or sewage works "
            "mentioned in passing. Not relevant (0): drinking water treatment."
        ),
    ),
    (
        19,
        "sewage sludge disposal",
        (
            "What is done with the sludge from sewage treatment: digestion and biogas, spreading "
            "on farmland, incineration, and the risks?"
        ),
        (
            "Highly relevant (3): the main subject is the treatment, use or disposal of sewage "
            "sludge or biosolids (digestion, dewatering, spreading on land, incineration, "
            "phosphorus recovery, contaminants in sludge). Relevant (2): a document on sewage "
            "treatment or on a pollutant that says something specific about what ends up in the "
            "sludge or what happens to it. Marginally relevant (1): sewage sludge mentioned in "
            "passing. Not relevant (0): sediment or mud in rivers and reservoirs, livestock "
            "manure, mine waste."
        ),
    ),
    (
        20,
        "wastewater reuse",
        (
            "Using treated wastewater again: for irrigation, industry, recharge of aquifers or "
            "drinking."
        ),
        (
            "Highly relevant (3): the main subject is a scheme, technology or public debate for "
            "reusing treated municipal wastewater (potable reuse, irrigation with effluent, "
            "recycled water for industry or recharge). Relevant (2): reuse of greywater in "
            "buildings, a treatment process described as producing water fit for reuse, or a reuse"
            " scheme described with specifics within another subject. Marginally relevant (1): "
            "reuse mentioned in passing, or recharge with treated water of unstated origin. Not "
            "relevant (0): reuse of sludge, recycling of other materials."
        ),
    ),
    (
        21,
        "flood forecasting warnings",
        ("How are river floods forecast, and how are people warned in time?"),
        (
            "Highly relevant (3): the main subject is flood forecasting (models, rainfall radar, "
            "ensembles) or flood warning systems and alerts. Relevant (2): monitoring that feeds "
            "flood forecasts (river gauges), sharing of data for warnings, or a forecast or "
            "warning described with specifics within another subject. Marginally relevant (1): "
            "warnings, forecasts or lead time mentioned in passing. Not relevant (0): flood "
            "defences or flood risk with nothing on forecasting or warning."
        ),
    ),
    (
        22,
        "storm surge barriers",
        (
            "Defences against storm surges from the sea: movable barriers, sea dikes and natural "
            "buffers."
        ),
        (
            "Highly relevant (3): the main subject is a storm surge barrier or another defence of "
            "a coast or estuary against surges (sea dikes, dams closing estuaries, marshes and "
            "mangroves used as buffers). Relevant (2): storm surges and coastal flooding, their "
            "causes and impacts, without defences as the main subject. Marginally relevant (1): "
            "coastal flooding or sea level rise mentioned in passing. Not relevant (0): defences "
            "against river floods inland."
        ),
    ),
    (
        23,
        "flash floods",
        (
            "Sudden floods after intense rain on small or steep catchments, dry valleys or cities:"
            " causes, dangers and warnings."
        ),
        (
            "Highly relevant (3): the main subject is flash floods (sudden floods from intense "
            "rain). Relevant (2): sudden flooding from intense rain in cities or small streams, or"
            " flash floods described with specifics within another subject. Marginally relevant "
            "(1): other sudden floods (glacial lake outbursts, dam breaks) or flash floods "
            "mentioned in passing. Not relevant (0): slow floods of large rivers, coastal surges, "
            "flood defences in general."
        ),
    ),
    (
        24,
        "arsenic well water",
        (
            "Arsenic in well water and groundwater: where it occurs, its effects on health, and "
            "how it is removed."
        ),
        (
            "Highly relevant (3): the main subject is arsenic in groundwater or drinking water "
            "(occurrence, health effects, limits, testing, removal). Relevant (2): testing or "
            "treatment of well water that names arsenic with something specific, or arsenic "
            "described with specifics within another subject. Marginally relevant (1): arsenic "
            "mentioned in passing, or arsenic outside drinking water (soils, food). Not relevant "
            "(0): other contaminants of wells only."
        ),
    ),
    (
        25,
        "PFAS drinking water",
        (
            "PFAS (so-called forever chemicals) in drinking water: sources, health limits and "
            "treatment."
        ),
        (
            "Highly relevant (3): the main subject is PFAS (per- and polyfluoroalkyl substances, "
            "perfluorinated compounds, forever chemicals) in drinking water or its sources: "
            "occurrence, exposure, limits or removal. Relevant (2): sources of PFAS pollution of "
            "water (firefighting foam, factories) or PFAS in the environment without drinking "
            "water. Marginally relevant (1): PFAS mentioned in passing in a list of pollutants. "
            "Not relevant (0): other chemicals; drinking water standards that do not mention these"
            " compounds."
        ),
    ),
    (
        26,
        "microplastics rivers",
        ("Microplastics in rivers, lakes and other fresh water: sources, amounts and removal."),
        (
            "Highly relevant (3): the main subject is microplastics or small plastic particles in "
            "rivers, lakes or other fresh water (sources, measurements, fate, removal). Relevant "
            "(2): microplastics in sewage, sludge or drinking water, or small plastic particles "
            "described with specifics within another subject. Marginally relevant (1): larger "
            "plastic litter or plastic waste, or microplastics mentioned in passing. Not relevant "
            "(0): other pollutants."
        ),
    ),
    (
        27,
        "cholera outbreaks",
        (
            "Outbreaks of cholera and other waterborne diseases caused by contaminated water, and "
            "how they are prevented."
        ),
        (
            "Highly relevant (3): the main subject is an outbreak of cholera or another waterborne"
            " disease (including Legionnaires' disease), or how such outbreaks arise and are "
            "prevented. Relevant (2): germs in drinking water or poor sanitation described "
            "explicitly as a cause of illness, including boil-water notices. Marginally relevant "
            "(1): disease or microbes in water mentioned in passing, or disinfection and "
            "sanitation with no mention of illness. Not relevant (0): chemical contaminants such "
            "as arsenic, lead or nitrate."
        ),
    ),
    (
        28,
        "rainwater harvesting",
        ("Collecting rain from roofs and land and storing it for later use."),
        (
            "Highly relevant (3): the main subject is collecting and storing rainwater for use "
            "(roof tanks, cisterns, ponds, check dams that refill wells). Relevant (2): rain tanks"
            " or rainwater harvesting described with specifics within another subject. Marginally "
            "relevant (1): holding rain back to reduce runoff without using it (rain gardens, "
            "green roofs, retention basins), or harvesting mentioned in passing. Not relevant (0):"
            " rain and runoff in general."
        ),
    ),
    (
        29,
        "smart water meters",
        (
            "Digital water meters that record use often: benefits for utilities and households, "
            "leak alerts and privacy."
        ),
        (
            "Highly relevant (3): the main subject is smart or digital water meters (automatic "
            "reading, frequent data, leak alerts, privacy of the data). Relevant (2): metering of "
            "household water use in general (installing meters, their effect on use), or smart "
            "meters described with specifics within another subject. Marginally relevant (1): "
            "water meters mentioned in passing, including meters on districts, wells or canals. "
            "Not relevant (0): meters for electricity or gas."
        ),
    ),
    (
        30,
        "water quality sensors",
        (
            "Continuous monitoring of water quality in rivers, lakes or supply networks with "
            "online sensors and automatic stations."
        ),
        (
            "Highly relevant (3): the main subject is automatic, continuous or real-time "
            "monitoring of water quality (sensor stations, buoys, online analysers, biological "
            "early-warning monitors). Relevant (2): water quality monitoring by sampling and "
            "laboratory or field tests, or water quality sensors described with specifics within "
            "another subject. Marginally relevant (1): water quality testing mentioned in passing,"
            " or sensors that measure water quantity (levels, flows, soil moisture). Not relevant "
            "(0): sensors for other purposes, such as sound."
        ),
    ),
    (
        31,
        "river basin management",
        (
            "Managing water at the scale of a whole river basin: basin authorities, management "
            "plans and cooperation among users."
        ),
        (
            "Highly relevant (3): the main subject is an organisation, law or plan for managing "
            "water across a whole river basin or catchment (basin agencies, basin management "
            "plans, integrated water resources management). Relevant (2): an international "
            "commission or basin-wide scheme that manages a shared basin (pollution control, "
            "allocation caps). Marginally relevant (1): treaties, disputes or data sharing between"
            " basin states without joint management, or basin planning mentioned in passing. Not "
            "relevant (0): single projects such as one dam or one levee."
        ),
    ),
    (
        32,
        "dam failures",
        ("Why dams fail, the floods that follow, and how dam safety is ensured."),
        (
            "Highly relevant (3): the main subject is the failure of dams, including tailings dams"
            " (causes, the floods released, known failures) or dam safety (inspection, hazard "
            "classes, emergency plans). Relevant (2): a disaster at a dam where the dam itself "
            "held, or dam safety described with specifics within another subject. Marginally "
            "relevant (1): the risk of dam failure mentioned in passing, bursting of natural dams "
            "(moraines), failures of river levees. Not relevant (0): effects of dams on fish, "
            "sediment or power."
        ),
    ),
    (
        33,
        "reservoir evaporation",
        ("How much water evaporates from reservoirs and lakes, and how can the loss be reduced?"),
        (
            "Highly relevant (3): the main subject is evaporation losses from reservoirs or lakes "
            "or a way of reducing them (covers, shade balls, floating solar panels, storing water "
            "underground instead). Relevant (2): evaporation from open water described with "
            "specifics within another subject. Marginally relevant (1): evaporation mentioned in "
            "passing, or evaporation losses from fields and irrigation. Not relevant (0): "
            "reservoirs with nothing on evaporation; evaporation ponds used on purpose."
        ),
    ),
    (
        34,
        "glacier melt water supply",
        (
            "How shrinking glaciers and snowpacks change the water supply of rivers and of the "
            "people who depend on them."
        ),
        (
            "Highly relevant (3): the main subject is the contribution of glacier or snow melt to "
            "rivers and water supply and how its decline or shift in time changes supply. Relevant"
            " (2): changes of glaciers or snowmelt with specific consequences for river flows, "
            "described within another subject. Marginally relevant (1): glaciers or snowmelt "
            "mentioned in passing, or hazards of glaciers such as outburst floods. Not relevant "
            "(0): ice and snow with no link to water supply."
        ),
    ),
    (
        35,
        "saltwater intrusion",
        (
            "Sea water entering coastal aquifers, rivers and estuaries: causes, detection and "
            "prevention."
        ),
        (
            "Highly relevant (3): the main subject is intrusion of sea water into coastal aquifers"
            " or up rivers and estuaries (caused by pumping, sea level rise or low flows; "
            "monitoring; barriers). Relevant (2): salinisation of coastal wells, land or farms by "
            "sea water described with specifics, or intrusion described within another subject. "
            "Marginally relevant (1): mixing of fresh and salt water or salty coastal groundwater "
            "mentioned in passing. Not relevant (0): salt from roads, irrigation or desalination "
            "brine."
        ),
    ),
    (
        36,
        "drinking water fluoridation",
        (
            "Adding fluoride to public drinking water to prevent tooth decay: practice, evidence "
            "and controversy."
        ),
        (
            "Highly relevant (3): the main subject is fluoridation of public water supplies "
            "(history, dose, evidence on teeth, arguments for and against, alternatives such as "
            "fluoridated salt). Relevant (2): fluoridation described with specifics within another"
            " subject. Marginally relevant (1): natural fluoride in groundwater and its removal, "
            "or fluoride named in passing. Not relevant (0): other additives such as chlorine or "
            "orthophosphate."
        ),
    ),
    (
        37,
        "virtual water trade",
        (
            "Water embedded in traded food and goods, and what it means for countries short of "
            "water."
        ),
        (
            "Highly relevant (3): the main subject is virtual water or how trade in crops and "
            "goods moves water between regions. Relevant (2): the water footprint of products "
            "without trade, or land deals that are also deals for water. Marginally relevant (1): "
            "exports of water-intensive crops mentioned in passing. Not relevant (0): trading of "
            "water rights within a basin, or water pricing."
        ),
    ),
    (
        38,
        "legionella plumbing",
        (
            "Legionella bacteria in the water systems of buildings (hot water, showers, cooling "
            "towers, spas): risks and control."
        ),
        (
            "Highly relevant (3): the main subject is Legionella or Legionnaires' disease in water"
            " systems (growth conditions, outbreaks, temperature control, flushing). Relevant (2):"
            " stagnant water, biofilms or temperatures in building plumbing described as a risk "
            "for bacteria, or Legionella described with specifics within another subject. "
            "Marginally relevant (1): building water systems or Legionella mentioned in passing. "
            "Not relevant (0): germs in rivers or in drinking water mains with no link to "
            "buildings."
        ),
    ),
    (
        39,
        "septic tanks",
        (
            "On-site sanitation for homes not connected to a sewer: septic tanks, their upkeep and"
            " the pollution they cause."
        ),
        (
            "Highly relevant (3): the main subject is septic tanks (how they work, emptying and "
            "maintenance, failures, pollution). Relevant (2): other on-site sanitation for "
            "households (pit latrines, composting toilets), or septic tanks described with "
            "specifics within another subject. Marginally relevant (1): on-site or small-scale "
            "sanitation mentioned in passing, including treatment for whole villages. Not relevant"
            " (0): central sewers and sewage works."
        ),
    ),
    (
        40,
        "industrial discharge permits",
        (
            "How are discharges of wastewater by factories and other works regulated: permits, "
            "limits, charges, monitoring and penalties?"
        ),
        (
            "Highly relevant (3): the main subject is the regulation of point-source discharges to"
            " water (permits, limits, effluent charges, inspections, penalties). Relevant (2): "
            "pollution incidents that led to rules or prosecutions, or discharge permits and "
            "limits described with specifics within another subject. Marginally relevant (1): "
            "industrial pollution of water with nothing on regulation, rules on farming pollution,"
            " or discharge permits mentioned in passing. Not relevant (0): permits to take water."
        ),
    ),
    (
        41,
        "thermal pollution rivers",
        (
            "Warm water discharged by power stations and industry into rivers, its effects on "
            "fish, and limits during heat waves."
        ),
        (
            "Highly relevant (3): the main subject is heat discharged into rivers or lakes "
            "(cooling water, temperature limits, effects on oxygen and fish). Relevant (2): "
            "cooling methods that reduce heat discharge, or river temperatures and their effects "
            "on fish from other causes (climate, loss of shade) described with specifics. "
            "Marginally relevant (1): water temperature mentioned in passing. Not relevant (0): "
            "everything else."
        ),
    ),
    (
        42,
        "lake eutrophication restoration",
        (
            "Restoring lakes overloaded with nutrients: cutting phosphorus inputs, treating "
            "sediments, biomanipulation."
        ),
        (
            "Highly relevant (3): the main subject is a measure to restore a eutrophic lake "
            "(diverting sewage, cutting phosphorus, treating sediments, biomanipulation) or its "
            "results. Relevant (2): causes and effects of eutrophication or algal blooms in lakes."
            " Marginally relevant (1): nutrient pollution of rivers or groundwater, monitoring of "
            "algae, or algae mentioned in passing. Not relevant (0): everything else."
        ),
    ),
    (
        43,
        "hard water softening",
        (
            "Hard water: calcium and magnesium, limescale, health, and softening at home or at the"
            " water works."
        ),
        (
            "Highly relevant (3): the main subject is water hardness or water softening. Relevant "
            "(2): hardness, scale or softening described with specifics within another subject. "
            "Marginally relevant (1): calcium, minerals or limescale in water mentioned in "
            "passing. Not relevant (0): everything else."
        ),
    ),
    (
        44,
        "bottled water",
        ("Bottled water compared with tap water: quality, price, plastic waste and rules."),
        (
            "Highly relevant (3): the main subject is bottled water (price, quality, rules, "
            "plastic waste, comparison with tap water). Relevant (2): bottled water described with"
            " specifics within another subject, such as households that rely on it. Marginally "
            "relevant (1): bottled water mentioned in passing, or plastic bottles as litter. Not "
            "relevant (0): everything else."
        ),
    ),
    (
        45,
        "lead service lines",
        (
            "Lead in drinking water from old pipes: health risks, corrosion control, and replacing"
            " lead service lines."
        ),
        (
            "Highly relevant (3): the main subject is lead in drinking water from pipes, its "
            "control by water chemistry, or replacing lead pipes. Relevant (2): the health effects"
            " of lead exposure, or lead pipes described with specifics within another subject. "
            "Marginally relevant (1): lead pipes mentioned in passing. Not relevant (0): other "
            "metals and other pipes."
        ),
    ),
    (
        46,
        "acid mine drainage",
        ("Acidic, metal-laden water flowing from mines and spoil heaps, and how it is treated."),
        (
            "Highly relevant (3): the main subject is acid mine drainage or polluted mine water "
            "(causes, effects, treatment). Relevant (2): other pollution of water by mining, such "
            "as spills of tailings or cyanide. Marginally relevant (1): mining and water mentioned"
            " together in passing. Not relevant (0): extraction of gravel or sand from rivers."
        ),
    ),
    (
        47,
        "environmental flows",
        (
            "How much water must be left in rivers below dams and abstractions to keep their "
            "ecosystems alive?"
        ),
        (
            "Highly relevant (3): the main subject is environmental, ecological or minimum flows "
            "(what they are, how they are set, releases from dams, rules and court orders). "
            "Relevant (2): effects of altered flow regimes on river life (hydropeaking, rivers "
            "running dry below intakes), or licences that protect river flows. Marginally relevant"
            " (1): flow requirements mentioned in passing, including flows agreed between states. "
            "Not relevant (0): everything else."
        ),
    ),
    (
        48,
        "wildfire water supply",
        (
            "Effects of forest fires on catchments, water quality and reservoirs that supply "
            "drinking water."
        ),
        (
            "Highly relevant (3): the main subject is the effect of wildfires on the catchments, "
            "quality or yield of drinking water supplies, or measures against it. Relevant (2): "
            "effects of fire on runoff, erosion or floods with nothing on drinking water, or "
            "wildfire risk to a water supply described within another subject. Marginally relevant"
            " (1): fire mentioned in passing. Not relevant (0): everything else."
        ),
    ),
    (
        49,
        "beaver dams",
        ("Beavers and their dams: effects on streams, floods, groundwater and wildlife."),
        (
            "Highly relevant (3): the main subject is beavers and their dams. Relevant (2): "
            "structures that imitate beaver dams (leaky woody dams) for floods or habitat. "
            "Marginally relevant (1): beavers mentioned in passing. Not relevant (0): man-made "
            "dams of concrete or earth."
        ),
    ),
    (
        50,
        "soil salinity irrigation",
        (
            "Salt building up in irrigated soils: causes, effects on crops, and remedies such as "
            "drainage and leaching."
        ),
        (
            "Highly relevant (3): the main subject is salinisation of irrigated land (causes, "
            "effects on yields, drainage, leaching). Relevant (2): salt affecting farmland from "
            "other causes (sea water, windblown salt), or leaching and drainage described with "
            "specifics within another subject. Marginally relevant (1): salinity of soil or "
            "irrigation water mentioned in passing. Not relevant (0): salt in drinking water or in"
            " the sea."
        ),
    ),
    (
        51,
        "household water treatment emergencies",
        (
            "How can people make water safe to drink at home or after disasters: boiling, chlorine"
            " tablets, filters, solar disinfection?"
        ),
        (
            "Highly relevant (3): the main subject is treatment of drinking water by households or"
            " in emergencies (boiling, chlorination, household filters, solar disinfection). "
            "Relevant (2): emergency drinking water supply, boil-water advice, or household "
            "treatment described with specifics within another subject. Marginally relevant (1): "
            "treatment for small communities (such as slow sand filters), or reliance on bought "
            "water where the tap is unsafe. Not relevant (0): treatment at central water works."
        ),
    ),
    (
        52,
        "cloud seeding",
        ("Attempts to increase rain or snow by seeding clouds, and the evidence that it works."),
        (
            "Highly relevant (3): the main subject is cloud seeding or other attempts to increase "
            "rain or snow. Relevant (2): cloud seeding described with specifics within another "
            "subject. Marginally relevant (1): cloud seeding mentioned in passing. Not relevant "
            "(0): how clouds and rain form, with nothing on changing them."
        ),
    ),
    (
        53,
        "water privatisation",
        (
            "Private companies running public water supply: sale of utilities, concessions, "
            "results, and return to public ownership."
        ),
        (
            "Highly relevant (3): the main subject is privatisation, concessions or private "
            "operation of water services, or their return to public hands. Relevant (2): who owns "
            "or runs water utilities described with specifics within another subject. Marginally "
            "relevant (1): private water companies mentioned in passing. Not relevant (0): "
            "everything else."
        ),
    ),
    (
        54,
        "urban water demand",
        (
            "How much water cities use, how demand is forecast, and how it is reduced (efficient "
            "appliances, campaigns, prices)."
        ),
        (
            "Highly relevant (3): the main subject is urban or household water demand (how much, "
            "peaks, forecasts, ways of reducing it). Relevant (2): a measure that changes how much"
            " water townspeople use, described with specifics (meters, tariffs, restrictions, "
            "greywater). Marginally relevant (1): urban water demand mentioned in passing. Not "
            "relevant (0): water used by farms or industry only."
        ),
    ),
]

#: (document id, grades given while writing it as 'topic:grade ...', text)
DOCUMENTS: list[tuple[str, str, str]] = [
    (
        "W064",
        "13:3",
        (
            "Seawater reverse osmosis plants now need roughly three to four kilowatt hours of "
            "electricity for each cubic metre of fresh water they produce. Most of that energy "
            "drives the high-pressure pumps that push seawater through the membranes. The "
            "theoretical minimum for separating the salt is about one kilowatt hour, so there is "
            "still room to save, though less than is often hoped."
        ),
    ),
    (
        "W065",
        "13:3 14:1",
        (
            "Pressure exchangers recover the energy still carried by the pressurised brine leaving"
            " the membranes and pass it to the incoming seawater. Since these energy recovery "
            "devices became standard, the power needed per cubic metre at desalination plants has "
            "fallen by more than half."
        ),
    ),
    (
        "W066",
        "13:3",
        (
            "Older desalination plants around the Gulf boil seawater in multi-stage flash "
            "distillers heated by steam from neighbouring power stations. Thermal desalination "
            "burns far more fuel per litre than membrane plants, which is why most new plants in "
            "the region use reverse osmosis."
        ),
    ),
    (
        "W067",
        "13:2 6:2 16:1",
        (
            "A coastal city in Australia built a desalination plant during a long drought and "
            "signed a contract for wind power to match its electricity use. When the rains "
            "returned the plant was put on standby, and households kept paying for it through "
            "their water bills."
        ),
    ),
    (
        "W068",
        "13:2",
        (
            "Container-sized desalination units powered by solar panels supply drinking water to "
            "small islands and remote villages. The panels drive a small reverse osmosis unit "
            "during the day, and the product water is stored in tanks for the night."
        ),
    ),
    (
        "W069",
        "13:2",
        (
            "Turning brackish groundwater into drinking water takes far less electricity than "
            "treating seawater, because the water holds only a fraction of the salt. Inland towns "
            "in dry regions increasingly pump saline aquifers and pass the water through "
            "membranes."
        ),
    ),
    (
        "W070",
        "14:3 13:1",
        (
            "A desalination plant returns roughly as much concentrated brine to the sea as it "
            "produces fresh water. Released from a pipe near the shore, the dense brine sinks and "
            "creeps along the seabed, where it can smother seagrass meadows and harm animals "
            "living on the bottom."
        ),
    ),
    (
        "W071",
        "14:3",
        (
            "Modern outfalls discharge brine through diffusers, nozzles that jet it upwards so "
            "that it mixes quickly with the surrounding seawater. Permits set a limit on salinity "
            "at the edge of a mixing zone a few tens of metres from the outlet, checked by regular"
            " surveys."
        ),
    ),
    (
        "W072",
        "14:3",
        (
            "Inland desalination plants cannot send their reject water to the sea, so they pipe it"
            " to evaporation ponds or inject it deep underground. Pilot projects recover salts "
            "such as gypsum and magnesium from the concentrate, which could make disposal cheaper."
        ),
    ),
    (
        "W073",
        "14:0",
        (
            "Road salt spread in winter washes into streams and raises their chloride levels for "
            "months. Some small lakes beside motorways have become so salty that their water no "
            "longer mixes in spring."
        ),
    ),
    (
        "W074",
        "14:2",
        (
            "Hollowing out underground salt caverns to store natural gas produces large volumes of"
            " brine, which operators pipe to the coast and release offshore. Fishermen have "
            "objected to the discharges near their grounds."
        ),
    ),
    (
        "W075",
        "15:3",
        (
            "Leak detection crews walk the streets at night with listening sticks, because a leak "
            "in a pressurised water main makes a hiss that travels along the pipe. The noise is "
            "easiest to hear when traffic is quiet and demand is low."
        ),
    ),
    (
        "W076",
        "15:3",
        (
            "A leak noise correlator uses two sensors clamped to the pipe on either side of a "
            "suspected leak. From the delay between the sound reaching each sensor it calculates "
            "where the crew should dig, often to within a metre."
        ),
    ),
    (
        "W077",
        "15:3",
        (
            "Many utilities lose a quarter or more of the water they treat before it reaches a "
            "customer, through bursts, seeping joints and theft. This non-revenue water is tracked"
            " by dividing the network into metered districts: a rise in the flow into a district "
            "in the small hours, when almost everyone is asleep, reveals a new leak."
        ),
    ),
    (
        "W078",
        "15:2",
        (
            "Lowering the pressure in a distribution network at night reduces both the flow from "
            "existing leaks and the number of new bursts. Valves that follow a daily pressure "
            "programme often pay for themselves within a few years."
        ),
    ),
    (
        "W079",
        "15:3",
        (
            "Satellite radar can detect treated water soaking the ground above buried pipes, and "
            "some cities use the images to choose which streets their leak teams should survey "
            "first."
        ),
    ),
    (
        "W080",
        "16:3",
        (
            "Under an increasing block tariff, the first cubic metres a household uses each month "
            "are cheap and later blocks cost more. The aim is to keep essential water affordable "
            "while charging heavy users, such as homes with large lawns and pools, a higher price."
        ),
    ),
    (
        "W081",
        "16:3",
        (
            "Large families can be penalised by block tariffs, because their consumption per "
            "household is high even when each member uses little. Some utilities therefore size "
            "the blocks by the number of people living in the home."
        ),
    ),
    (
        "W082",
        "16:3",
        (
            "Most water bills combine a fixed standing charge, which pays for pipes and treatment "
            "works, with a volumetric charge for each cubic metre. When a utility raises the fixed"
            " part, households that save water see little reward on their bill."
        ),
    ),
    (
        "W083",
        "16:3 54:3",
        (
            "Studies of household demand find that a ten per cent rise in the price of water cuts "
            "consumption by only a few per cent in the short run, because water for drinking and "
            "washing has no substitute. Outdoor use responds to price more than indoor use."
        ),
    ),
    (
        "W084",
        "16:3",
        (
            "Social tariffs give low-income households a discount or a free basic allowance of "
            "water. South Africa wrote a free basic volume per household each month into national "
            "policy, paid for by higher charges on larger users."
        ),
    ),
    (
        "W085",
        "16:1 7:1",
        (
            "Farmers in many countries pay for irrigation water by the hectare rather than by "
            "volume, so they gain nothing by saving it. Charging by volume requires meters on "
            "canals and wells, which are costly to install and easy to tamper with."
        ),
    ),
    (
        "W086",
        "17:3",
        (
            "In the western United States, water rights follow prior appropriation: first in time,"
            " first in right. In a dry year the holders of the most senior rights take their full "
            "share, and junior users, often towns that arrived later, may receive nothing."
        ),
    ),
    (
        "W087",
        "17:3",
        (
            "Riparian doctrine, inherited from English common law, gives every owner of land along"
            " a river the right to make reasonable use of its water. It suits humid regions but "
            "offers no clear rule for dividing a shrinking flow."
        ),
    ),
    (
        "W088",
        "17:3 31:2",
        (
            "Australia's Murray-Darling Basin separated water entitlements from land, so that "
            "irrigators can buy and sell allocations under a cap on total use. Trading moves water"
            " to the crops that earn most, but some farming communities that sold their water have"
            " shrunk."
        ),
    ),
    (
        "W089",
        "17:3 47:2",
        (
            "Anyone taking more than a small daily volume from a river or borehole in England "
            "needs an abstraction licence from the environment regulator. Newer licences are time-"
            "limited and can be suspended when the river falls below a set flow."
        ),
    ),
    (
        "W090",
        "18:3",
        (
            "In the activated sludge process, air is blown into large tanks of settled sewage so "
            "that a dense population of bacteria can feed on the dissolved organic matter. The "
            "bacteria clump into flocs that settle in a clarifier, and part of the settled sludge "
            "is returned to the tanks to keep the process going."
        ),
    ),
    (
        "W091",
        "18:2",
        (
            "Aeration is the largest single use of electricity at a sewage works, often about half"
            " of the total. Fine-bubble diffusers, and oxygen probes that slow the blowers when "
            "demand is low, save a large share of that energy."
        ),
    ),
    (
        "W092",
        "18:3",
        (
            "Switching the air on and off in different zones lets the same tank remove nitrogen: "
            "some bacteria turn ammonia into nitrate where there is oxygen, and others turn "
            "nitrate into nitrogen gas where there is none."
        ),
    ),
    (
        "W093",
        "18:3 20:2",
        (
            "Membrane bioreactors replace the settling tank of the activated sludge process with "
            "submerged membranes that hold back the sludge. The effluent is clear enough to be "
            "reused, and the plant needs a fraction of the space."
        ),
    ),
    (
        "W094",
        "18:2",
        (
            "Sludge bulking happens when filamentous bacteria take over the flocs, which then "
            "settle poorly and are washed out of the clarifiers. Operators fight it by changing "
            "the oxygen level or dosing chlorine into the return line."
        ),
    ),
    (
        "W095",
        "18:2 19:1",
        (
            "A sewage works treats wastewater in stages. Screens remove rags and grit, primary "
            "tanks let solids settle, and a biological stage breaks down the dissolved organic "
            "matter; the settled solids, or sludge, are pumped away for treatment. Some works add "
            "a final filter or disinfection before the water goes to the river."
        ),
    ),
    (
        "W096",
        "19:3 18:1",
        (
            "Anaerobic digesters at large sewage works heat the sludge in closed tanks, where "
            "bacteria turn much of it into biogas. Burnt in engines on site, the gas can supply a "
            "large part of the works' electricity."
        ),
    ),
    (
        "W097",
        "19:3 26:1",
        (
            "Treated sewage sludge, sold as biosolids, is spread on farmland as a fertiliser rich "
            "in phosphorus. Critics point to the metals, medicines and microplastics it can carry "
            "into the soil."
        ),
    ),
    (
        "W098",
        "19:3",
        (
            "Some countries have stopped spreading sewage sludge on fields and burn it instead in "
            "dedicated incinerators. Phosphorus, a fertiliser that will become scarce, is then "
            "recovered from the ash."
        ),
    ),
    (
        "W099",
        "19:0 11:1",
        (
            "Reservoirs slowly fill with silt and mud washed in from the catchment. Dredging the "
            "accumulated sediment is expensive, and the spoil has to be dumped somewhere."
        ),
    ),
    (
        "W100",
        "20:3",
        (
            "Windhoek in Namibia has turned treated wastewater directly into drinking water since "
            "the late 1960s, blending it with other sources after several barriers of treatment. "
            "It remains one of very few cities to do so openly."
        ),
    ),
    (
        "W101",
        "20:3",
        (
            "Singapore calls its recycled water NEWater. After membrane filtration, reverse "
            "osmosis and ultraviolet light it is used mostly by factories that need very pure "
            "water, and a small share is added to reservoirs."
        ),
    ),
    (
        "W102",
        "20:3",
        (
            "Public acceptance is often the main obstacle to recycling sewage into drinking water."
            " Campaigns against toilet-to-tap sank several projects, while schemes that first "
            "passed the water through an aquifer or a reservoir fared better."
        ),
    ),
    (
        "W103",
        "20:3",
        (
            "Treated effluent irrigates orchards, cotton and golf courses in many dry regions. "
            "Israel reuses most of its municipal wastewater in agriculture, after treatment that "
            "removes pathogens and much of the salt."
        ),
    ),
    (
        "W104",
        "20:2 54:2",
        (
            "Greywater from showers and washing machines can flush toilets or water gardens after "
            "simple filtering, cutting a home's demand for mains water by up to a third."
        ),
    ),
    (
        "W105",
        "21:3",
        (
            "Flood forecasters feed rainfall radar and river gauge readings into hydrological "
            "models that predict water levels hours or days ahead. Forecasts become less certain "
            "the further ahead they look, so warnings increasingly come with probabilities."
        ),
    ),
    (
        "W106",
        "21:3",
        (
            "A flood warning is useless if it does not reach people in time. After floods in which"
            " residents were caught asleep, agencies added text alerts to mobile phones and sirens"
            " in villages along the river."
        ),
    ),
    (
        "W107",
        "21:3",
        (
            "A continental flood awareness system runs ensembles of weather forecasts through a "
            "river model covering the whole of Europe and alerts national services when a major "
            "flood is likely several days ahead."
        ),
    ),
    (
        "W108",
        "21:2 30:1",
        (
            "Gauging stations measure the height of the river every fifteen minutes and send the "
            "readings by radio or mobile network. A rating curve, drawn from flow measurements, "
            "converts the height into a discharge."
        ),
    ),
    (
        "W109",
        "22:3",
        (
            "The Thames Barrier has steel gates that rest on the riverbed and are rotated upright "
            "when a surge tide threatens London. It has been closed far more often in recent "
            "decades than its designers expected."
        ),
    ),
    (
        "W110",
        "22:3",
        (
            "After the North Sea flood of 1953, the Netherlands built the Delta Works, a chain of "
            "dams and barriers that shortened its coastline. The Eastern Scheldt barrier was left "
            "open in normal weather to keep the estuary's tides and shellfish."
        ),
    ),
    (
        "W111",
        "22:3 21:1",
        (
            "The Maeslant barrier near Rotterdam has two floating gates, each as long as a tall "
            "tower lying on its side, which swing shut across the shipping channel when a storm "
            "surge is forecast."
        ),
    ),
    (
        "W112",
        "22:2",
        (
            "A storm surge is the rise of the sea pushed ashore by strong winds and low air "
            "pressure. When it coincides with a high tide, it can flood low coasts that are "
            "normally safe."
        ),
    ),
    (
        "W113",
        "22:3 9:2",
        (
            "Salt marshes and mangroves in front of sea dikes take energy out of the waves, so the"
            " dike behind them can be lower. Restoring them is a cheaper coastal defence in some "
            "places and gives habitat for birds and fish."
        ),
    ),
    (
        "W114",
        "22:0 1:2",
        (
            "Mobile flood barriers of aluminium beams protect the old town from the river. When a "
            "high water is expected, crews slot the beams into grooves in the quay walls."
        ),
    ),
    (
        "W115",
        "23:3",
        (
            "Flash floods rise within minutes to a few hours of intense rain, often from a single "
            "thunderstorm over a small, steep catchment. There is little time to warn, and many "
            "victims are caught in cars on flooded roads."
        ),
    ),
    (
        "W116",
        "23:3",
        (
            "In deserts, a storm far away can send a wall of water down a dry wadi under a clear "
            "sky. Hikers and campers in narrow canyons are most at risk."
        ),
    ),
    (
        "W117",
        "23:3 48:2",
        (
            "Burned hillsides shed rain like pavement, so the first heavy storm after a wildfire "
            "often brings flash floods and debris flows loaded with ash."
        ),
    ),
    (
        "W118",
        "23:2 12:2",
        (
            "A cloudburst over the city flooded underground car parks and metro stations within "
            "half an hour, while the river itself stayed low. Drains sized for ordinary storms "
            "could not take the water."
        ),
    ),
    (
        "W119",
        "24:3",
        (
            "Millions of tube wells were sunk in Bangladesh to give villages water free of the "
            "germs found in ponds, and only later was it found that many drew groundwater rich in "
            "natural arsenic. Years of drinking it cause skin lesions and cancers."
        ),
    ),
    (
        "W120",
        "24:3 51:2",
        (
            "Arsenic can be removed from well water by adsorption on iron oxide, either in "
            "household filters or in small community plants. The spent filter media must then be "
            "disposed of safely."
        ),
    ),
    (
        "W121",
        "24:3",
        (
            "The health guideline for arsenic in drinking water is ten micrograms per litre, a "
            "level many private wells exceed without their owners knowing. Simple test kits let "
            "households check their water."
        ),
    ),
    (
        "W122",
        "24:2 36:1",
        (
            "Private well owners are responsible for testing their own water. Recommended tests "
            "cover bacteria, nitrate and naturally occurring elements such as arsenic, uranium and"
            " fluoride."
        ),
    ),
    (
        "W123",
        "25:3",
        (
            "PFAS, a family of thousands of fluorinated chemicals, hardly break down and have been"
            " found in drinking water wells near airports and factories. Regulators have set "
            "limits of a few nanograms per litre for some of them."
        ),
    ),
    (
        "W124",
        "25:3",
        (
            "Firefighting foams used in training at military bases and airports soaked into the "
            "ground and contaminated nearby aquifers with perfluorinated compounds; several towns "
            "had to close their wells."
        ),
    ),
    (
        "W125",
        "25:3",
        (
            "Granular activated carbon and high-pressure membranes remove most forever chemicals "
            "from drinking water, but the short-chain compounds pass through carbon quickly, and "
            "the spent carbon must be destroyed at high temperature."
        ),
    ),
    (
        "W126",
        "25:3",
        (
            "Blood tests of residents near a fluorochemical plant showed raised levels of the "
            "compounds it had released into the river, and the company was ordered to pay for new "
            "treatment at the local water works."
        ),
    ),
    (
        "W127",
        "25:0 4:1",
        (
            "Drinking water standards list maximum concentrations for dozens of substances, from "
            "bacteria to nitrate and pesticides, and are reviewed as new evidence appears."
        ),
    ),
    (
        "W128",
        "26:3",
        (
            "Samples taken with fine nets from rivers across Europe found microplastics at every "
            "site, from fibres shed by synthetic clothes to fragments of packaging. Concentrations"
            " were highest downstream of large cities."
        ),
    ),
    (
        "W129",
        "26:3 12:1",
        (
            "Tyre wear produces a dust of rubber particles that rain washes from roads into drains"
            " and streams; it may be the largest source of microplastic in urban rivers."
        ),
    ),
    (
        "W130",
        "26:2 19:2",
        (
            "Sewage works remove most microplastic particles from wastewater, but the particles "
            "end up in the sludge, which is often spread on farmland."
        ),
    ),
    (
        "W131",
        "26:3",
        (
            "Lakes act as traps for tiny plastic particles, which sink to the bottom once algae "
            "and bacteria have coated them."
        ),
    ),
    (
        "W132",
        "26:1",
        (
            "A river clean-up day collected shopping trolleys, bottles and bags from the banks; "
            "volunteers said plastic bottles were the most common item."
        ),
    ),
    (
        "W133",
        "27:3",
        (
            "In 1854 John Snow mapped cholera deaths in a London district and traced them to a "
            "single public pump on Broad Street. Removing the pump handle became a founding story "
            "of epidemiology."
        ),
    ),
    (
        "W134",
        "27:3",
        (
            "Cholera spreads through water contaminated with the faeces of infected people, and "
            "outbreaks follow wherever sanitation breaks down, in refugee camps or after "
            "earthquakes and floods. Oral rehydration saves most patients if given quickly."
        ),
    ),
    (
        "W135",
        "27:3 5:1 4:1",
        (
            "A heavy rainstorm washed manure from farmland into the shallow wells of a small town,"
            " and hundreds of residents fell ill with E. coli and Campylobacter infections; "
            "several died. The inquiry blamed failures in chlorination and monitoring."
        ),
    ),
    (
        "W136",
        "27:2 51:2",
        (
            "Boil-water notices are issued when tests find faecal bacteria in the supply or after "
            "a main breaks. Households are told to boil water for a minute before drinking it or "
            "using it to brush teeth."
        ),
    ),
    (
        "W137",
        "27:3 4:2",
        (
            "Cryptosporidium, a parasite resistant to chlorine, caused one of the largest "
            "waterborne outbreaks on record when it passed through a city's filters. Ultraviolet "
            "disinfection now guards many plants against it."
        ),
    ),
    (
        "W138",
        "28:3",
        (
            "Rainwater harvesting collects the rain falling on a roof in gutters and stores it in "
            "a tank for watering gardens, flushing toilets or, after treatment, drinking."
        ),
    ),
    (
        "W139",
        "28:3 3:2",
        (
            "In parts of India, villages revived traditional ponds and small earthen check dams "
            "that catch the monsoon rain, so that it soaks into the ground and refills their wells"
            " for the dry season."
        ),
    ),
    (
        "W140",
        "28:3",
        (
            "The first flush of rain from a roof carries dust, leaves and bird droppings, so "
            "cisterns are fitted with a diverter that discards the first few litres of each storm."
        ),
    ),
    (
        "W141",
        "28:3 12:2",
        (
            "Some cities now require new houses to include a rain tank, both to save mains water "
            "and to hold back storm runoff."
        ),
    ),
    (
        "W142",
        "29:3",
        (
            "Smart water meters send a reading every hour or so by radio, so the utility no longer"
            " has to visit homes and customers can follow their use online."
        ),
    ),
    (
        "W143",
        "29:3 15:1",
        (
            "A flow that never stops during the night is the signature of a leak or a running "
            "toilet. Utilities with smart meters now send customers a text message when their "
            "meter has not stood still for a day."
        ),
    ),
    (
        "W144",
        "29:3",
        (
            "Critics of smart water metering fear that detailed consumption records reveal when "
            "people are at home, and ask who may see the data and for how long it is kept."
        ),
    ),
    (
        "W145",
        "29:2 16:2 54:2",
        (
            "Fitting meters to homes that used to pay a flat charge typically cuts their water use"
            " by around a tenth, as people start to notice what they use and pay for."
        ),
    ),
    (
        "W146",
        "30:3",
        (
            "Automatic monitoring stations on large rivers measure temperature, oxygen, "
            "conductivity, pH and turbidity every few minutes and raise an alarm when a value "
            "jumps, so that water works downstream can close their intakes."
        ),
    ),
    (
        "W147",
        "30:3",
        (
            "Some water works keep tanks of fish or water fleas in a stream of the raw water; a "
            "change in how the animals swim warns of toxic substances that no single sensor would "
            "detect."
        ),
    ),
    (
        "W148",
        "30:3 42:1",
        (
            "Low-cost sensors on buoys report algae pigments and oxygen in lakes in real time, "
            "warning bathing sites of toxic blooms."
        ),
    ),
    (
        "W149",
        "30:2",
        (
            "Monthly samples taken by hand at river sites are analysed in the laboratory for "
            "nutrients and metals. The long records reveal trends, but they miss short pollution "
            "events between visits."
        ),
    ),
    (
        "W150",
        "30:3 4:1",
        (
            "Chlorine residual analysers placed in the distribution network check continuously "
            "that disinfectant is still present at the far ends of the pipes."
        ),
    ),
    (
        "W151",
        "31:3",
        (
            "The European Water Framework Directive requires a management plan for every river "
            "basin district, revised every six years, with the aim of good ecological and chemical"
            " status for all waters."
        ),
    ),
    (
        "W152",
        "31:3 40:1",
        (
            "France created six water agencies in 1964, one for each major river basin, funded by "
            "charges on abstraction and pollution and steered by basin committees of users, "
            "sometimes called water parliaments."
        ),
    ),
    (
        "W153",
        "31:3",
        (
            "Integrated water resources management asks that land use, water supply, flood control"
            " and ecology within a catchment be planned together rather than by separate agencies."
        ),
    ),
    (
        "W154",
        "31:3 8:1",
        (
            "The Tennessee Valley Authority, set up in the 1930s, built and ran dams for flood "
            "control, navigation and power across an entire river valley."
        ),
    ),
    (
        "W155",
        "32:3",
        (
            "When the earthen Teton Dam in Idaho failed in 1976, while its reservoir was filling "
            "for the first time, water piped through the embankment and washed it away within "
            "hours."
        ),
    ),
    (
        "W156",
        "32:3",
        (
            "Most dam failures result from overtopping during floods that exceed the spillway's "
            "capacity, or from internal erosion that carries soil out of earth dams."
        ),
    ),
    (
        "W157",
        "32:3",
        (
            "In 2017 the damaged spillway of California's Oroville Dam forced the evacuation of "
            "nearly two hundred thousand people living downstream."
        ),
    ),
    (
        "W158",
        "32:3",
        (
            "Dam safety regulators classify dams by the hazard to people downstream and require "
            "regular inspections and emergency action plans for high-hazard dams."
        ),
    ),
    (
        "W159",
        "32:3 46:2",
        (
            "Tailings dams hold the wet waste of mines and have failed more often than water dams;"
            " a collapse releases a flood of mud that buries everything in its path."
        ),
    ),
    (
        "W160",
        "33:3",
        (
            "In hot, dry regions, open reservoirs can lose more than a metre of water depth to "
            "evaporation each year, sometimes more than the city draws from them."
        ),
    ),
    (
        "W161",
        "33:3",
        (
            "Floating covers of plastic balls or panels shade the water surface and cut "
            "evaporation; Los Angeles once poured millions of black balls onto one of its "
            "reservoirs."
        ),
    ),
    (
        "W162",
        "33:3 42:1",
        (
            "Floating solar farms on reservoirs generate electricity and shade the water, reducing"
            " both evaporation and the growth of algae."
        ),
    ),
    (
        "W163",
        "33:3 3:1",
        (
            "Storing water underground in aquifers avoids the evaporation that shallow dams suffer"
            " in dry climates."
        ),
    ),
    (
        "W164",
        "33:3",
        ("Lake Nasser loses a large share of the Nile's flow to evaporation under the desert sun."),
    ),
    (
        "W165",
        "34:3",
        (
            "Glaciers in the Andes release meltwater in the dry season, when cities such as La Paz"
            " depend on it. As the glaciers shrink, that dry-season supply will dwindle."
        ),
    ),
    (
        "W166",
        "34:3",
        (
            "A shrinking glacier first yields more water, as the ice melts faster, before the flow"
            " peaks and declines; researchers call the turning point peak water."
        ),
    ),
    (
        "W167",
        "34:3",
        (
            "Rivers rising in the Himalaya and Hindu Kush supply more than a billion people, and "
            "the share of their flow that comes from melting ice is largest in the upper Indus."
        ),
    ),
    (
        "W168",
        "34:1 23:1 32:1",
        (
            "Sudden outbursts of glacial lakes dammed by moraine have destroyed villages in the "
            "Himalaya, and warming makes such lakes grow."
        ),
    ),
    (
        "W169",
        "35:3 3:2",
        (
            "Saltwater intrusion turns coastal aquifers brackish when pumping draws the boundary "
            "between fresh and salt groundwater inland; once a well is salty it may take decades "
            "to recover."
        ),
    ),
    (
        "W170",
        "35:3 20:2",
        (
            "Barrier wells along the coast of southern California inject highly treated recycled "
            "wastewater to build a freshwater ridge that holds back seawater intrusion."
        ),
    ),
    (
        "W171",
        "35:3",
        (
            "As sea level rises and droughts lower river flows, salt water pushes further up "
            "estuaries and reaches drinking water intakes that were once fresh."
        ),
    ),
    (
        "W172",
        "35:2 50:2",
        (
            "Farmers in the Mekong delta switched from rice to shrimp as salinity crept inland "
            "during the dry season."
        ),
    ),
    (
        "W173",
        "36:3",
        (
            "Grand Rapids, Michigan, became the first city to add fluoride to its drinking water "
            "in 1945, and tooth decay among its children fell in the following years."
        ),
    ),
    (
        "W174",
        "36:3",
        (
            "Community water fluoridation adjusts fluoride to about 0.7 milligrams per litre. "
            "Opponents argue that toothpaste already provides enough and that adding it to "
            "everyone's water removes individual choice."
        ),
    ),
    (
        "W175",
        "36:3",
        (
            "Several European countries never fluoridated their public water and add fluoride to "
            "table salt instead, or rely on toothpaste."
        ),
    ),
    (
        "W176",
        "36:1",
        (
            "In parts of the East African Rift, groundwater holds so much natural fluoride that "
            "children's teeth become mottled and bones deform; filters of bone char help remove "
            "it."
        ),
    ),
    (
        "W177",
        "37:3",
        (
            "Virtual water is the water used to grow or make a product. When a dry country imports"
            " wheat, it saves the water it would have needed to grow the grain itself."
        ),
    ),
    (
        "W178",
        "37:3",
        (
            "Exports of fruit and vegetables from dry regions amount to exporting scarce water, "
            "since most of the water used by irrigated crops is lost to the air where they grow."
        ),
    ),
    (
        "W179",
        "37:2 17:1",
        (
            "Large foreign purchases of farmland, sometimes called land grabs, are also grabs of "
            "the water needed to irrigate it."
        ),
    ),
    (
        "W180",
        "38:3",
        (
            "Legionella bacteria multiply in warm water between about 25 and 45 degrees Celsius "
            "and infect people who breathe in fine droplets from showers, spa pools or cooling "
            "towers."
        ),
    ),
    (
        "W181",
        "38:3",
        (
            "To control Legionella, hot water should be stored above 60 degrees and reach the taps"
            " above 50, and little-used outlets should be flushed every week."
        ),
    ),
    (
        "W182",
        "38:3 27:3",
        (
            "Legionnaires' disease was named after an outbreak of pneumonia among people attending"
            " a convention at a Philadelphia hotel in 1976; the bacteria came from the building's "
            "cooling system."
        ),
    ),
    (
        "W183",
        "38:2",
        (
            "Water standing in the pipes of a building closed for months loses its disinfectant "
            "and grows biofilms, so reopened schools and offices were advised to flush their "
            "plumbing thoroughly."
        ),
    ),
    (
        "W184",
        "39:3",
        (
            "A septic tank holds household wastewater long enough for solids to settle and partly "
            "digest; the liquid flows out into a drain field where the soil finishes the "
            "treatment."
        ),
    ),
    (
        "W185",
        "39:3 27:1",
        (
            "Septic tanks must be pumped out every few years. When they are neglected, sewage "
            "surfaces in gardens or seeps into streams and nearby wells."
        ),
    ),
    (
        "W186",
        "39:2",
        (
            "Composting toilets need no water and no sewer; the waste is turned into a soil "
            "conditioner after a year or more of storage."
        ),
    ),
    (
        "W187",
        "39:2 27:2",
        (
            "Pit latrines remain the most common sanitation for rural households in many poor "
            "countries; dug too close to a well, they can contaminate it with the germs that cause"
            " diarrhoea."
        ),
    ),
    (
        "W188",
        "40:3",
        (
            "Factories discharging wastewater to a river need a permit setting limits on "
            "pollutants such as metals, oil and oxygen-demanding matter, and must report the "
            "results of their own sampling."
        ),
    ),
    (
        "W189",
        "40:3",
        (
            "Under the United States Clean Water Act, no one may discharge pollutants from a pipe "
            "into navigable waters without a permit, and the limits are based on the best "
            "available treatment technology."
        ),
    ),
    (
        "W190",
        "40:3",
        (
            "A paper mill was fined heavily after inspectors found that it had bypassed its "
            "treatment plant at night and falsified its records."
        ),
    ),
    (
        "W191",
        "40:3",
        (
            "Industries connected to the city sewer pay trade effluent charges according to the "
            "volume and strength of their wastewater, which encourages them to treat it before "
            "discharge."
        ),
    ),
    (
        "W192",
        "40:2 46:2",
        (
            "After a cyanide spill from a gold mine poisoned the Tisza and the Danube in 2000, "
            "European rules on mining waste were tightened."
        ),
    ),
    (
        "W193",
        "41:3",
        (
            "Thermal pollution comes mostly from power stations that cool their condensers with "
            "river water and return it several degrees warmer. Warm water holds less oxygen, and "
            "fish such as trout and salmon suffer."
        ),
    ),
    (
        "W194",
        "41:3",
        (
            "During heat waves, French nuclear plants on the Rhone and the Loire have had to cut "
            "their output because their cooling water would have heated the rivers beyond legal "
            "limits."
        ),
    ),
    (
        "W195",
        "41:2",
        (
            "Cooling towers reject most of the heat to the air by evaporating part of the water, "
            "so a plant with towers takes far less from the river than one with once-through "
            "cooling."
        ),
    ),
    (
        "W196",
        "41:2 9:2",
        (
            "Shade from trees along small streams keeps summer water temperatures several degrees "
            "lower, and replanting bank-side trees is a cheap way to protect cold-water fish."
        ),
    ),
    (
        "W197",
        "42:3",
        (
            "Lake Washington near Seattle recovered in the 1970s after the sewage that had fed its"
            " algae was diverted to Puget Sound; the water cleared within a few years."
        ),
    ),
    (
        "W198",
        "42:3",
        (
            "Even after inputs stop, phosphorus stored in lake sediments keeps feeding algae for "
            "years; dosing alum or a phosphate-binding clay locks it in the mud."
        ),
    ),
    (
        "W199",
        "42:3",
        (
            "Biomanipulation removes the fish that eat zooplankton, so that water fleas multiply "
            "and graze down the algae."
        ),
    ),
    (
        "W200",
        "42:2 4:1",
        (
            "Blue-green algae blooms can produce toxins that kill dogs and force drinking water "
            "plants to change their treatment."
        ),
    ),
    (
        "W201",
        "43:3",
        (
            "Hard water contains dissolved calcium and magnesium picked up from limestone and "
            "chalk. It leaves scale in kettles and boilers and makes soap lather poorly."
        ),
    ),
    (
        "W202",
        "43:3",
        (
            "Ion-exchange softeners swap calcium for sodium in household water; people on low-salt"
            " diets are advised to keep an unsoftened tap for drinking."
        ),
    ),
    (
        "W203",
        "43:3 4:1",
        (
            "Some water works soften the whole supply by adding lime, which precipitates calcium "
            "carbonate that is then settled out."
        ),
    ),
    (
        "W204",
        "44:3",
        (
            "Bottled water can cost hundreds of times more than tap water, though in blind "
            "tastings many people cannot tell the two apart."
        ),
    ),
    (
        "W205",
        "44:3 26:1",
        (
            "Billions of plastic bottles of water are sold every year, and only part of them are "
            "recycled; the rest end up in landfills, incinerators or the sea."
        ),
    ),
    (
        "W206",
        "44:3",
        (
            "Natural mineral water must come from a protected underground source and be bottled at"
            " the spring without treatment other than removing iron or adding gas."
        ),
    ),
    (
        "W207",
        "44:2 51:1",
        (
            "Where tap water is unsafe or distrusted, poor households spend a large share of their"
            " income on bottled or tanker water."
        ),
    ),
    (
        "W208",
        "45:3",
        (
            "In Flint, Michigan, a switch of water source in 2014 without corrosion control let "
            "lead leach from old pipes into the drinking water of thousands of homes."
        ),
    ),
    (
        "W209",
        "45:3",
        (
            "Lead service lines, the small pipes connecting houses to the main, were common until "
            "the middle of the twentieth century. Replacing only part of a line can raise lead "
            "levels for a while."
        ),
    ),
    (
        "W210",
        "45:3 4:1",
        (
            "Adding orthophosphate to drinking water builds a protective film inside old pipes and"
            " keeps lead from dissolving."
        ),
    ),
    (
        "W211",
        "46:3",
        (
            "When sulphide minerals in abandoned mines meet air and water they form sulphuric "
            "acid, which dissolves iron and other metals; the orange water can flow from old adits"
            " for centuries."
        ),
    ),
    (
        "W212",
        "46:3 9:1",
        (
            "Passive treatment sends mine water through limestone channels and reed-filled "
            "wetlands, where the acid is neutralised and the iron settles out."
        ),
    ),
    (
        "W213",
        "46:3",
        (
            "The Rio Tinto in Spain runs red and acidic, partly from the natural weathering of ore"
            " bodies and partly from thousands of years of mining."
        ),
    ),
    (
        "W214",
        "46:3",
        (
            "Coal mines that stop pumping fill with groundwater, which can surface years later "
            "carrying iron and acid into streams."
        ),
    ),
    (
        "W215",
        "47:3",
        (
            "An environmental flow is the quantity, timing and quality of water a river needs to "
            "sustain its ecosystem and the people who depend on it."
        ),
    ),
    (
        "W216",
        "47:3 2:0 11:1",
        (
            "Below many dams the river receives only a fixed minimum flow, which keeps water in "
            "the channel but removes the floods that once moved gravel and flooded the banks."
        ),
    ),
    (
        "W217",
        "47:3 11:2",
        (
            "Planned flood releases from Glen Canyon Dam rebuild sandbars in the Grand Canyon, an "
            "experiment in restoring some of the river's natural variability."
        ),
    ),
    (
        "W218",
        "47:3 17:2",
        (
            "Rivers in the south of Spain dry out in summer below irrigation intakes, and courts "
            "have ordered the authorities to set ecological flows and enforce them."
        ),
    ),
    (
        "W219",
        "48:3",
        (
            "After a forest fire, ash and eroded soil wash into reservoirs, raising turbidity, "
            "nutrients and dissolved organic carbon, and treatment plants struggle to keep up."
        ),
    ),
    (
        "W220",
        "48:3",
        (
            "Melbourne's water comes from forested catchments closed to the public. A severe fire "
            "would cut the water yield for decades, because the regrowing forest uses more water "
            "than the old one."
        ),
    ),
    (
        "W221",
        "48:3",
        (
            "Water utilities in the American West now pay for thinning forests upstream of their "
            "reservoirs to reduce the risk of severe fires."
        ),
    ),
    (
        "W222",
        "49:3",
        (
            "Beavers build dams of branches and mud that raise the water table, create ponds and "
            "slow floods; in Britain they have been released again after an absence of four "
            "centuries."
        ),
    ),
    (
        "W223",
        "49:3",
        (
            "Beaver ponds trap sediment and store water that keeps streams flowing in dry spells, "
            "and farmers sometimes complain of flooded fields."
        ),
    ),
    (
        "W224",
        "49:2 1:1",
        (
            "Leaky dams of logs placed across small streams mimic the work of beavers, slowing "
            "flood peaks in upland catchments."
        ),
    ),
    (
        "W225",
        "50:3",
        (
            "Irrigation water always carries some salt; when more water evaporates than drains "
            "away, salt accumulates in the root zone and yields fall."
        ),
    ),
    (
        "W226",
        "50:3",
        (
            "Rising water tables beneath irrigated plains bring salt to the surface by capillary "
            "action; drains that lower the water table are the cure."
        ),
    ),
    (
        "W227",
        "50:3",
        (
            "Farmers leach salts by applying more water than the crop needs, washing the salt "
            "below the roots, though the drainage water then carries it into rivers downstream."
        ),
    ),
    (
        "W228",
        "50:3",
        (
            "Around the former Aral Sea, salt blown from the dry lakebed settles on fields and "
            "adds to the salinity left by decades of cotton irrigation."
        ),
    ),
    (
        "W229",
        "51:3",
        (
            "Solar water disinfection fills clear plastic bottles with water and leaves them in "
            "full sun for six hours; ultraviolet light and heat kill most pathogens."
        ),
    ),
    (
        "W230",
        "51:3",
        (
            "After floods and earthquakes, relief agencies hand out chlorine tablets, buckets and "
            "filters so that families can treat water at home until the supply is restored."
        ),
    ),
    (
        "W231",
        "51:3",
        (
            "Ceramic pot filters, made locally from clay and sawdust and coated with silver, "
            "remove most bacteria from household water."
        ),
    ),
    (
        "W232",
        "51:3",
        (
            "Boiling water is effective against germs but needs fuel, which is scarce in camps and"
            " adds to the smoke in homes."
        ),
    ),
    (
        "W233",
        "52:3",
        (
            "Cloud seeding sprays particles of silver iodide into clouds to give water droplets "
            "something to freeze on, in the hope that they fall as snow or rain."
        ),
    ),
    (
        "W234",
        "52:3",
        (
            "Decades of experiments suggest that seeding can increase snowfall from some winter "
            "clouds by a few per cent, but proving an effect on any single storm is hard."
        ),
    ),
    (
        "W235",
        "52:3",
        (
            "The United Arab Emirates flies seeding missions over its mountains to increase "
            "rainfall and has tested salt crystals and electric charges as well."
        ),
    ),
    (
        "W236",
        "53:3",
        (
            "The privatisation of water in England and Wales in 1989 sold the regional water "
            "companies to private owners; critics point to rising debts and sewage spills, "
            "supporters to investment in pipes and treatment."
        ),
    ),
    (
        "W237",
        "53:3 16:1",
        (
            "In Cochabamba, Bolivia, protests in 2000 against price rises after the water system "
            "was handed to a private consortium forced the government to cancel the contract."
        ),
    ),
    (
        "W238",
        "53:3",
        (
            "Paris took its water supply back into public hands in 2010 after decades of "
            "concessions to private firms, and cut the price."
        ),
    ),
    (
        "W239",
        "54:3",
        (
            "Water demand in a city peaks on hot summer evenings when gardens are watered; "
            "planners size pumps and reservoirs for those peaks rather than for the average day."
        ),
    ),
    (
        "W240",
        "54:3",
        (
            "Low-flow showerheads, dual-flush toilets and efficient washing machines have cut "
            "indoor use per person in many cities since the 1990s."
        ),
    ),
    (
        "W241",
        "54:3 6:2 15:1",
        (
            "Cape Town halved its water use in 2018 to avoid Day Zero, when the taps would have "
            "been turned off, with strict limits per person, lower network pressure and public "
            "dashboards of the city's consumption."
        ),
    ),
    (
        "W242",
        "54:3",
        (
            "Forecasts of a city's water demand combine population growth, weather and trends in "
            "appliance efficiency; many past forecasts overestimated how much would be needed."
        ),
    ),
    (
        "W243",
        "13:2 15:2 16:2 20:2 29:2 54:2",
        (
            "The city's water strategy to 2050 sets out how supply and demand will be balanced as "
            "the population grows. Leakage is to be cut by a third by replacing old mains and "
            "adding pressure management, and every home will have a smart meter by 2030. A second "
            "desalination plant, powered by an offshore wind farm, will be built only if demand "
            "keeps rising, and treated wastewater will be recycled for industry and for watering "
            "parks. Tariffs will rise in steps to pay for the investment, with a social tariff "
            "protecting low-income households. The plan assumes that use per person keeps falling "
            "as appliances become more efficient."
        ),
    ),
    (
        "W244",
        "24:2 5:1 15:2 16:1 29:1 30:1",
        (
            "Annual report of the valley water cooperative. The cooperative supplies about four "
            "thousand households from six boreholes. After a wet winter the nitrate level in two "
            "boreholes rose above the limit, and their water was blended with that of cleaner "
            "wells until it fell. Tests showed arsenic just above the guideline in the eastern "
            "borehole, so members voted to fund an adsorption unit there. Burst pipes cost the "
            "cooperative about an eighth of the water it pumped; volunteers now read the district "
            "meters every week to spot new leaks. The tariff stays unchanged this year."
        ),
    ),
    (
        "W245",
        "30:2 40:2 5:1",
        (
            "Notes for volunteer river wardens. Walk your stretch of river once a month and after "
            "heavy rain. Look for grey fungus on the bed, foam, oil sheens and dead fish below "
            "outfalls, and note the time and place. Photograph any pipe that discharges in dry "
            "weather: it may be a misconnected drain or an industrial discharge without a permit. "
            "A simple test kit measures nitrate, phosphate and ammonia; record the results on the "
            "shared map. Report pollution at once to the environment agency rather than tackling "
            "the source yourself."
        ),
    ),
    (
        "W246",
        "2:1 8:1 9:1 18:1 40:1",
        (
            "Two centuries of a working river. Mill weirs powered textile works along the valley "
            "from the 1790s, and by 1900 dyes and sewage had left the lower river without fish. In"
            " the 1930s a hydroelectric dam was built in the gorge, and the meandering lower "
            "course was straightened for barges. Recovery began in the 1970s, when the towns built"
            " sewage works with activated sludge stages and the dye works closed. Oxygen levels "
            "rose, and after fish passes were added to the weirs, salmon returned in the 1990s. "
            "The floodplain below the town has since been partly reconnected to the river."
        ),
    ),
    (
        "W247",
        "34:2 23:2 32:2 48:2 8:1",
        (
            "Adapting a mountain valley to a warmer climate. The glacier at the head of the valley"
            " has lost a third of its length since 1980, and summer flows in the river are "
            "expected to fall once the melt has peaked. Heavier summer storms already cause flash "
            "floods in the side streams, and a debris basin has been built above the village. The "
            "old hydropower dam is now inspected more often, and its operators have an emergency "
            "plan in case it fails. Drier forests have raised the risk of wildfire in the "
            "catchment that feeds the village springs."
        ),
    ),
    (
        "W248",
        "13:2 28:2 35:2 44:2 16:1",
        (
            "How a small island gets its water. The island has no rivers, and its one aquifer is "
            "thin and turns brackish when pumped hard. Until recently most drinking water came "
            "from a desalination plant run on diesel, whose fuel made the water very expensive; a "
            "solar farm now powers it during the day. Houses collect rain from their roofs in "
            "cisterns, which are still compulsory for new buildings. Many residents buy bottled "
            "water for drinking, and the council is trying to win back their trust in the tap."
        ),
    ),
    (
        "W249",
        "7:2 50:2 17:2 5:1 29:1",
        (
            "Advice for irrigators this season. Schedule watering from the soil moisture probes "
            "rather than by the calendar. Where the groundwater is saline, apply an extra leaching"
            " irrigation before sowing to flush salts below the root zone, and check that the "
            "field drains are running. Remember that the abstraction licence limits the volume you"
            " may pump from the borehole; the regulator reads the meters in September. Keep "
            "fertiliser away from the ditches to stop nitrate reaching the stream."
        ),
    ),
    (
        "W250",
        "18:2 19:1 39:1 40:1",
        (
            "A short glossary of wastewater terms. Effluent: treated wastewater leaving a works. "
            "Activated sludge: the mass of bacteria kept suspended in an aerated tank to consume "
            "organic matter. Biochemical oxygen demand: the oxygen that microbes need to break "
            "down the organic matter in a sample, the usual measure of the strength of sewage. "
            "Septic tank: a buried chamber in which household sewage settles. Permit: the licence "
            "that sets how much of each pollutant a works may discharge. Digestate: what remains "
            "after sludge has been digested."
        ),
    ),
]

#: judgments of the pooled pairs, and of pairs revisited for recall: 'topic: doc=grade ...'
POOL = """
1: W105=1 W106=1 W107=1 W110=1 W112=0 W115=0 W117=0 W134=0 W153=0 W154=1 W156=0 W159=0 W216=0
1: W217=0 W222=1 W230=0 W247=1
2: W113=0 W139=0 W147=0 W154=0 W156=0 W157=0 W158=0 W159=0 W163=0 W193=0 W196=0 W199=0 W217=0
2: W222=0 W224=0 W245=0 W247=0
3: W069=0 W119=0 W176=0 W214=0 W249=0
4: W068=2 W069=2 W082=0 W083=0 W095=1 W100=2 W102=1 W103=0 W121=1 W126=1 W136=1 W138=0 W171=0
4: W173=0 W184=0 W189=0 W190=0 W202=1 W206=0 W208=1 W212=0 W219=1 W236=0 W248=1
5: W087=0 W089=0 W107=0 W114=0 W123=0 W126=0 W128=0 W129=0 W146=0 W149=0 W152=0 W167=0 W188=1
5: W194=0 W195=0 W205=0 W213=0 W215=0 W217=0 W218=0 W227=1 W246=1 W247=0 W248=0 W193=0
6: W171=0
7: W218=0 W225=0 W228=0 W242=0
8: W065=0 W066=0 W067=0 W193=0 W248=0
10: W089=0 W114=0 W126=0 W132=0 W149=0 W151=0 W152=0 W154=0 W167=0 W171=0 W188=0 W193=0 W194=0
10: W195=0 W215=0 W216=0 W217=0 W218=0 W227=0 W245=0 W246=0 W247=0 W248=0
11: W110=0 W172=0 W198=0 W223=1
12: W227=0
13: W012=0 W020=2 W022=0 W026=0 W035=0 W036=0 W043=0 W072=1 W079=0 W083=0 W091=0 W113=0 W142=0
13: W145=0 W153=0 W220=0 W240=0 W241=0
14: W020=1
15: W019=0 W020=0 W033=0 W061=0 W069=0 W088=0 W102=0 W104=0 W136=1 W141=0 W147=0 W171=0 W177=0
15: W204=0 W207=0 W209=0 W220=0 W225=0 W226=0 W227=0 W248=0
16: W019=0 W029=3 W061=0 W069=0 W088=1 W120=0 W121=0 W136=0 W147=0 W171=0 W177=0 W184=0 W187=0
16: W202=0 W204=1 W207=1 W220=0 W225=0 W231=0 W250=0
17: W019=0 W020=0 W033=0 W061=0 W062=0 W069=0 W104=0 W147=0 W153=0 W166=0 W171=0 W177=0 W193=0
17: W196=0 W204=0 W207=0 W208=0 W211=0 W220=0 W225=0 W226=0 W227=0 W229=0 W244=0 W248=0 W046=1
17: W048=1 W049=1 W236=0
18: W019=0 W097=1 W098=1 W125=0 W126=0 W130=1 W138=0 W184=1 W189=0 W190=0 W200=0 W206=0 W212=0
18: W219=0 W236=0 W043=1 W103=0
19: W022=0 W072=0 W090=1 W091=0 W093=1 W094=1 W102=0 W185=0 W197=0 W236=0 W246=0
20: W043=0 W057=0 W095=0 W130=0 W184=0 W188=0 W191=0 W250=0 W014=1
21: W002=1 W004=0 W005=0 W041=0 W050=2 W110=0 W112=0 W114=1 W115=1 W117=0 W134=0 W148=0 W153=0
21: W154=0 W156=0 W159=0 W216=0 W217=0 W222=0 W224=0 W230=0 W247=0
22: W002=0 W005=0 W008=0 W010=0 W056=0 W057=0 W100=0 W116=0 W117=0 W118=0 W140=0 W141=0 W170=0
22: W234=0 W247=0
23: W002=0 W005=0 W041=0 W050=0 W066=0 W105=0 W106=0 W107=0 W110=0 W112=0 W114=0 W134=0 W153=0
23: W154=0 W156=0 W159=1 W216=0 W217=0 W222=0 W224=0 W230=0 W056=1
24: W011=0 W012=0 W015=0 W019=0 W020=0 W033=0 W061=0 W069=0 W085=0 W088=0 W123=0 W124=0 W135=0
24: W139=0 W147=0 W169=0 W170=0 W171=0 W177=0 W185=0 W187=0 W204=0 W207=0 W220=0 W225=0 W226=0
24: W227=0 W235=0 W248=0
25: W016=0 W068=0 W069=0 W083=0 W100=0 W102=0 W119=0 W121=0 W136=0 W138=0 W171=0 W173=0 W200=0
25: W202=0 W208=0 W210=0 W248=0
26: W009=0 W024=0 W025=0 W038=0 W042=0 W046=0 W049=0 W050=0 W051=0 W057=0 W063=0 W089=0 W146=0
26: W154=0 W167=0 W171=0 W188=0 W193=0 W194=0 W195=0 W215=0 W216=0 W217=0 W218=0 W227=0 W245=0
26: W246=0 W247=0 W248=0
27: W016=1 W017=1
28: W056=0 W058=1 W005=1
29: W019=0 W020=0 W033=0 W061=0 W069=0 W085=1 W088=0 W147=0 W171=0 W177=0 W204=0 W207=0 W211=0
29: W220=0 W225=0 W226=0 W227=0 W229=0 W248=0 W236=0
30: W019=0 W020=0 W033=1 W061=0 W062=0 W069=0 W076=0 W088=0 W153=0 W166=0 W171=0 W177=0 W193=0
30: W204=0 W207=0 W208=0 W211=0 W215=0 W220=0 W225=0 W226=0 W227=0 W229=0 W248=0 W015=1 W236=0
31: W005=0 W024=0 W025=0 W030=0 W038=0 W042=0 W049=1 W050=1 W051=0 W057=0 W089=0 W132=0 W171=0
31: W193=0 W195=0 W215=0 W216=0 W217=0 W218=0 W227=0 W243=0 W245=0 W246=0 W247=0 W248=0 W046=1
31: W047=2 W048=1
32: W006=0 W052=0 W110=0 W135=0 W139=0 W154=0 W163=0 W216=0 W217=0 W222=0 W224=0 W246=0 W001=1
33: W006=0 W026=0 W027=0 W028=0 W032=1 W039=0 W048=0 W063=0 W072=0 W099=0 W101=0 W102=0 W155=0
33: W219=0 W221=0 W239=0
34: W016=0 W019=0 W055=0 W061=0 W068=0 W069=0 W088=0 W096=0 W136=0 W147=0 W153=0 W177=0 W203=0
34: W207=0 W220=0 W230=0 W238=0 W243=0 W244=0 W248=0 W063=3
35: W015=3 W055=1
36: W016=0 W068=0 W069=0 W083=0 W100=0 W102=0 W119=0 W121=0 W123=0 W125=0 W127=0 W136=0 W138=0
36: W171=0 W200=0 W202=0 W208=0 W210=0 W248=0
37: W019=0 W020=0 W033=0 W061=0 W062=2 W069=0 W088=0 W104=0 W147=0 W153=0 W166=0 W171=0 W189=0
37: W191=0 W193=0 W196=0 W204=0 W207=0 W208=0 W211=0 W220=0 W225=0 W226=0 W227=0 W229=0 W244=0
37: W248=0 W236=0
39: W068=0 W090=0 W092=0 W093=0 W095=0 W096=0 W138=0 W141=0 W147=0 W043=1
40: W040=0 W071=2 W074=1 W108=0 W047=2 W025=1
41: W009=0 W024=0 W025=0 W038=0 W042=0 W046=0 W047=0 W049=0 W050=0 W051=0 W057=0 W063=0 W066=0
41: W089=0 W128=0 W129=0 W132=0 W146=1 W149=0 W152=0 W154=0 W167=0 W171=0 W188=0 W215=0 W216=0
41: W217=0 W218=0 W227=0 W245=0 W246=0 W247=0 W248=0
42: W022=2 W073=0 W131=0 W164=0 W168=0 W021=1 W023=1 W025=1
43: W019=0 W020=0 W033=0 W061=0 W062=0 W069=0 W088=0 W147=0 W153=0 W166=0 W171=0 W177=0 W193=0
43: W196=0 W204=0 W207=0 W208=0 W211=0 W220=0 W225=0 W226=0 W227=0 W229=0 W234=0 W244=0 W248=0
43: W104=0 W236=0
44: W019=0 W020=0 W033=0 W061=0 W062=0 W069=0 W088=0 W104=0 W147=0 W153=0 W166=0 W171=0 W177=0
44: W189=0 W193=0 W196=0 W208=0 W211=0 W220=0 W225=0 W226=0 W227=0 W229=0 W244=0 W236=0
45: W019=3 W094=0 W107=0
46: W044=0 W060=0 W227=0 W053=0
47: W007=0 W030=0 W036=0 W038=0 W040=2 W046=1 W063=0 W077=0 W078=0 W087=0 W108=0 W117=0 W143=0
47: W164=0 W166=0 W167=0 W171=0 W184=0 W211=0 W240=0 W247=0
48: W016=0 W019=0 W055=0 W061=0 W068=0 W069=0 W088=0 W096=0 W136=0 W147=0 W153=0 W165=0 W167=0
48: W177=0 W203=0 W207=0 W230=0 W238=0 W243=0 W244=0 W248=0
49: W006=0 W052=0 W110=0 W139=0 W154=0 W155=0 W156=0 W157=0 W158=0 W159=0 W163=0 W216=0 W217=0
49: W246=0 W247=0
50: W023=0 W031=0 W033=0 W071=0 W085=0 W097=0 W156=0 W184=0 W186=0 W218=0 W219=0
51: W019=0 W027=0 W029=0 W080=0 W081=0 W082=0 W083=0 W084=0 W095=0 W100=0 W103=0 W121=0 W126=0
51: W138=0 W158=0 W184=0 W189=0 W190=0 W200=0 W202=0 W206=0 W212=0 W219=0 W236=0 W244=0 W247=0
51: W018=1
53: W019=0 W020=0 W033=0 W061=0 W062=0 W069=0 W088=0 W104=0 W147=0 W153=0 W166=0 W171=0 W177=0
53: W178=0 W189=0 W193=0 W196=0 W204=0 W207=0 W208=0 W211=0 W220=0 W225=0 W226=0 W227=0 W229=0
53: W244=0 W248=0
54: W019=0 W037=0 W056=0 W060=0 W061=0 W069=0 W075=0 W088=0 W091=0 W129=0 W147=0 W177=0 W207=0
54: W220=0 W225=0 W244=0 W248=0 W250=0 W026=2 W027=1 W029=2 W080=2 W081=1 W082=2 W084=0
"""


# --- building ------------------------------------------------------------------------------------


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("".join(parts).encode("utf-8")).hexdigest()


def _split(text: str, tag: str) -> list[str]:
    """The ``<tag>...</tag>`` blocks of a file, each with the white space that follows it."""
    return re.findall(rf"<{tag}>.*?</{tag}>\s*", text, flags=re.S)


def _block_id(block: str, tag: str) -> str:
    found = re.search(rf"<{tag}>\s*(\S+?)\s*</{tag}>", block)
    if found is None:
        raise ValueError(f"no <{tag}> in {block[:60]!r}")
    return found.group(1)


def document_block(doc_id: str, text: str) -> str:
    return f"<DOC>\n<DOCNO>{doc_id}</DOCNO>\n<TEXT>\n{text}\n</TEXT>\n</DOC>\n"


def topic_block(num: int, title: str, desc: str, narr: str) -> str:
    return (
        f"<top>\n<num>{num}</num>\n<title>{title}</title>\n<desc>{desc}</desc>\n"
        f"<narr>{narr}</narr>\n</top>\n\n"
    )


def judgments() -> dict[tuple[str, str], int]:
    """Every judgment this script adds: (topic, document) -> grade; a pair judged twice fails."""
    found: dict[tuple[str, str], int] = {}

    def add(topic: str, doc: str, grade: int) -> None:
        if (topic, doc) in found:
            raise ValueError(f"topic {topic}, {doc} is judged twice")
        found[(topic, doc)] = grade

    for doc_id, grades, _ in DOCUMENTS:
        for item in grades.split():
            topic, grade = item.split(":")
            add(topic, doc_id, int(grade))
    for line in POOL.strip().splitlines():
        topic, *items = line.split()
        for item in items:
            doc, grade = item.split("=")
            add(topic.rstrip(":"), doc, int(grade))
    return found


def build(base: Path) -> None:
    new_docs = {doc_id for doc_id, _, _ in DOCUMENTS}
    new_topics = {str(num) for num, *_ in TOPICS}
    added = judgments()
    known_docs = set()

    # documents: the first version's blocks, byte for byte, then the new ones
    kept = [
        b
        for b in _split((base / "documents.trec").read_text(encoding="utf-8"), "DOC")
        if _block_id(b, "DOCNO") not in new_docs
    ]
    _check("documents", kept)
    known_docs |= {_block_id(b, "DOCNO") for b in kept}
    blocks = kept + [document_block(d, text) for d, _, text in DOCUMENTS]
    known_docs |= new_docs
    (HERE / "documents.trec").write_text("".join(blocks), encoding="utf-8")

    # topics
    kept = [
        b
        for b in _split((base / "topics.trec").read_text(encoding="utf-8"), "top")
        if _block_id(b, "num") not in new_topics
    ]
    _check("topics", kept)
    topics = {_block_id(b, "num") for b in kept} | new_topics
    blocks = kept + [topic_block(*t) for t in TOPICS]
    (HERE / "topics.trec").write_text("".join(blocks), encoding="utf-8")

    # qrels: the first version's lines, unchanged, and the added judgments, sorted
    lines = {}
    for line in (base / "qrels.txt").read_text(encoding="utf-8").splitlines():
        if line.strip():
            topic, _, doc, grade = line.split()
            if (topic, doc) not in added:
                lines[(topic, doc)] = f"{topic} 0 {doc} {grade}\n"
    _check("qrels", [lines[k] for k in sorted(lines, key=_qrels_order)])
    for (topic, doc), grade in added.items():
        if topic not in topics or doc not in known_docs:
            raise ValueError(f"judgment for an unknown topic or document: {topic} {doc}")
        if not 0 <= grade <= (2 if int(topic) <= 12 else 3):
            raise ValueError(f"grade {grade} out of range for topic {topic} ({doc})")
        lines[(topic, doc)] = f"{topic} 0 {doc} {grade}\n"
    text = "".join(lines[k] for k in sorted(lines, key=_qrels_order))
    (HERE / "qrels.txt").write_text(text, encoding="utf-8")

    collection.make_runs(HERE / "runs")
    print(f"{len(known_docs)} documents, {len(topics)} topics, {len(lines)} judgments")


def _qrels_order(key: tuple[str, str]) -> tuple[int, str]:
    return int(key[0]), key[1]


def _check(part: str, blocks: list[str]) -> None:
    if _digest(blocks) != FIRST_VERSION[part]:
        raise SystemExit(
            f"the {part} kept from the base differ from the collection's first version: "
            "rebuild with --base pointing at a copy of the first version"
        )


# --- the pool ------------------------------------------------------------------------------------


def pool(depth: int = POOL_DEPTH) -> dict[str, list[str]]:
    """Each topic's pool: the documents any run ranks in its top ``depth``, in trec_eval's order
    (score descending, ties by document id descending), in first-seen order."""
    col = collection.load_collection()
    found: dict[str, list[str]] = {}
    for run in col.runs.values():
        rows = sorted(
            zip(run["query_id"].astype(str), run["doc_id"].astype(str), run["score"], strict=True),
            key=lambda r: (int(r[0]), -r[2], _descending(r[1])),
        )
        seen: dict[str, int] = {}
        for topic, doc, _ in rows:
            seen[topic] = seen.get(topic, 0) + 1
            if seen[topic] <= depth and doc not in found.setdefault(topic, []):
                found[topic].append(doc)
    return found


def _descending(doc_id: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in doc_id) + (1,)


def report_unjudged() -> int:
    col = collection.load_collection()
    judged = set(
        zip(col.qrels["query_id"].astype(str), col.qrels["doc_id"].astype(str), strict=True)
    )
    texts = dict(zip(col.documents["doc_id"], col.documents["text"], strict=True))
    narratives = {str(num): (title, narr) for num, title, _, narr in TOPICS}
    missing = 0
    for topic, docs in sorted(pool().items(), key=lambda kv: int(kv[0])):
        todo = [d for d in docs if (topic, d) not in judged]
        if not todo:
            continue
        missing += len(todo)
        title, narr = narratives.get(topic, ("(first version)", ""))
        print(f"\n## topic {topic}: {title}\n{narr}")
        for doc in sorted(todo):
            print(f"  {doc}: {texts[doc]}")
    print(f"\n{missing} pooled pairs unjudged")
    return 1 if missing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, default=HERE, help="folder of the first version")
    parser.add_argument("--pool", action="store_true", help="list unjudged pooled pairs")
    args = parser.parse_args(argv)
    if args.pool:
        return report_unjudged()
    build(args.base)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

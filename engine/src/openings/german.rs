//! German names for openings, for the side panel when the screen speaks German. PGN headers
//! keep the data set's English names (`Opening`'s `Display`).
//!
//! A name is "Family: Variation, Subvariation, …". The family is translated from a table of
//! established German names; a family without one stays English, and so does its whole name.
//! The variation part is translated only when every one of its parts is: a German family with
//! an English variation reads fine, a half-German variation does not. A part is translated by
//!
//! - a table of phrases ("Exchange Variation" → "Abtauschvariante"), or
//! - a person's name and a kind word ("Najdorf Variation" → "Najdorf-Variante"), with the names
//!   listed (Russian ones in their German transliteration: "Chigorin" → "Tschigorin"), so that
//!   a place ("Leningrad", German "Leningrader") or a descriptive word never passes for one,
//! - "X Gambit Accepted"/"Declined" → "Angenommenes/Abgelehntes X-Gambit".
//!
//! Everything else (move-bearing parts like "with Nf3", nicknames) stays English.

use std::borrow::Cow;

/// English family → established German name, sorted by English name (binary search).
pub(super) static FAMILIES: [(&str, &str); 64] = [
    ("Alekhine Defense", "Aljechin-Verteidigung"),
    ("Benko Gambit", "Benkö-Gambit"),
    ("Benko Gambit Accepted", "Angenommenes Benkö-Gambit"),
    ("Benko Gambit Declined", "Abgelehntes Benkö-Gambit"),
    ("Benoni Defense", "Benoni-Verteidigung"),
    ("Bird Opening", "Bird-Eröffnung"),
    ("Bishop's Opening", "Läuferspiel"),
    ("Blackmar-Diemer Gambit", "Blackmar-Diemer-Gambit"),
    (
        "Blackmar-Diemer Gambit Accepted",
        "Angenommenes Blackmar-Diemer-Gambit",
    ),
    (
        "Blackmar-Diemer Gambit Declined",
        "Abgelehntes Blackmar-Diemer-Gambit",
    ),
    ("Bogo-Indian Defense", "Bogoljubow-Indische Verteidigung"),
    ("Caro-Kann Defense", "Caro-Kann-Verteidigung"),
    ("Catalan Opening", "Katalanische Eröffnung"),
    ("Center Game", "Mittelgambit"),
    ("Colle System", "Colle-System"),
    ("Danish Gambit", "Nordisches Gambit"),
    ("Danish Gambit Accepted", "Angenommenes Nordisches Gambit"),
    ("Danish Gambit Declined", "Abgelehntes Nordisches Gambit"),
    ("Dutch Defense", "Holländische Verteidigung"),
    ("English Opening", "Englische Eröffnung"),
    ("Englund Gambit", "Englund-Gambit"),
    ("Englund Gambit Declined", "Abgelehntes Englund-Gambit"),
    ("Four Knights Game", "Vierspringerspiel"),
    ("French Defense", "Französische Verteidigung"),
    ("Grünfeld Defense", "Grünfeld-Indische Verteidigung"),
    ("Indian Defense", "Indische Verteidigung"),
    ("Italian Game", "Italienische Partie"),
    ("King's Gambit", "Königsgambit"),
    ("King's Gambit Accepted", "Angenommenes Königsgambit"),
    ("King's Gambit Declined", "Abgelehntes Königsgambit"),
    ("King's Indian Attack", "Königsindischer Angriff"),
    ("King's Indian Defense", "Königsindische Verteidigung"),
    ("Latvian Gambit", "Lettisches Gambit"),
    ("Latvian Gambit Accepted", "Angenommenes Lettisches Gambit"),
    ("London System", "Londoner System"),
    ("Modern Defense", "Moderne Verteidigung"),
    ("Nimzo-Indian Defense", "Nimzowitsch-Indische Verteidigung"),
    ("Nimzo-Larsen Attack", "Nimzowitsch-Larsen-Angriff"),
    ("Nimzowitsch Defense", "Nimzowitsch-Verteidigung"),
    ("Old Indian Defense", "Altindische Verteidigung"),
    ("Owen Defense", "Owen-Verteidigung"),
    ("Petrov's Defense", "Russische Verteidigung"),
    ("Philidor Defense", "Philidor-Verteidigung"),
    ("Pirc Defense", "Pirc-Verteidigung"),
    ("Polish Opening", "Polnische Eröffnung"),
    ("Ponziani Opening", "Ponziani-Eröffnung"),
    ("Queen's Gambit", "Damengambit"),
    ("Queen's Gambit Accepted", "Angenommenes Damengambit"),
    ("Queen's Gambit Declined", "Abgelehntes Damengambit"),
    ("Queen's Indian Defense", "Damenindische Verteidigung"),
    ("Queen's Pawn Game", "Damenbauernspiel"),
    ("Robatsch Defense", "Robatsch-Verteidigung"),
    ("Ruy Lopez", "Spanische Partie"),
    ("Réti Opening", "Réti-Eröffnung"),
    ("Scandinavian Defense", "Skandinavische Verteidigung"),
    ("Scotch Game", "Schottische Partie"),
    ("Semi-Slav Defense", "Halbslawische Verteidigung"),
    ("Sicilian Defense", "Sizilianische Verteidigung"),
    ("Slav Defense", "Slawische Verteidigung"),
    ("Tarrasch Defense", "Tarrasch-Verteidigung"),
    ("Three Knights Opening", "Dreispringerspiel"),
    ("Torre Attack", "Torre-Angriff"),
    ("Trompowsky Attack", "Trompowsky-Eröffnung"),
    ("Vienna Game", "Wiener Partie"),
];

/// Variation parts translated as a whole, sorted by English. Descriptive words and places
/// ("Leningrad" → "Leningrader") need a German form of their own.
pub(super) static PHRASES: [(&str, &str); 50] = [
    ("Advance Variation", "Vorstoßvariante"),
    ("Albin Countergambit", "Albins Gegengambit"),
    ("Austrian Attack", "Österreichischer Angriff"),
    ("Berlin Defense", "Berliner Verteidigung"),
    ("Bishop's Gambit", "Läufergambit"),
    ("Budapest Gambit", "Budapester Gambit"),
    (
        "Cambridge Springs Defense",
        "Cambridge-Springs-Verteidigung",
    ),
    ("Carlsbad Variation", "Karlsbader Variante"),
    ("Classical Attack", "Klassischer Angriff"),
    ("Classical Defense", "Klassische Verteidigung"),
    ("Classical System", "Klassisches System"),
    ("Classical Variation", "Klassische Variante"),
    ("Closed", "Geschlossene Variante"),
    ("Closed System", "Geschlossenes System"),
    ("Closed Variation", "Geschlossene Variante"),
    ("Czech Variation", "Tschechische Variante"),
    ("Dragon Variation", "Drachenvariante"),
    ("Dutch Variation", "Holländische Variante"),
    ("English Attack", "Englischer Angriff"),
    ("Evans Gambit", "Evansgambit"),
    ("Exchange Variation", "Abtauschvariante"),
    ("Fianchetto Defense", "Fianchetto-Verteidigung"),
    ("Fianchetto Variation", "Fianchetto-Variante"),
    ("Four Pawns Attack", "Vierbauernangriff"),
    ("Giuoco Pianissimo", "Giuoco Pianissimo"),
    ("Giuoco Piano", "Giuoco Piano"),
    ("Hungarian Defense", "Ungarische Verteidigung"),
    ("Leningrad Variation", "Leningrader Variante"),
    ("Main Line", "Hauptvariante"),
    ("Meran Variation", "Meraner Variante"),
    ("Modern Attack", "Moderner Angriff"),
    ("Modern Defense", "Moderne Verteidigung"),
    ("Modern Steinitz Defense", "Moderne Steinitz-Verteidigung"),
    ("Modern Variation", "Moderne Variante"),
    ("Moscow Variation", "Moskauer Variante"),
    ("Open", "Offene Variante"),
    ("Open Variation", "Offene Variante"),
    ("Orthodox Defense", "Orthodoxe Verteidigung"),
    ("Orthodox Variation", "Orthodoxe Variante"),
    ("Russian Variation", "Russische Variante"),
    ("Scandinavian Variation", "Skandinavische Variante"),
    ("Scheveningen Variation", "Scheveninger Variante"),
    ("Scotch Gambit", "Schottisches Gambit"),
    ("Spanish Variation", "Spanische Variante"),
    ("Stonewall Variation", "Stonewall-Variante"),
    ("Symmetrical Variation", "Symmetrische Variante"),
    ("Vienna Gambit", "Wiener Gambit"),
    ("Vienna Variation", "Wiener Variante"),
    ("Wing Gambit", "Flügelgambit"),
    ("Yugoslav Attack", "Jugoslawischer Angriff"),
];

/// People whose names make variation parts ("Najdorf Variation"), with their German
/// spelling, sorted by English. Only people: see the module comment.
pub(super) static PEOPLE: [(&str, &str); 115] = [
    ("Alapin", "Alapin"),
    ("Alekhine", "Aljechin"),
    ("Allgaier", "Allgaier"),
    ("Anderssen", "Anderssen"),
    ("Averbakh", "Awerbach"),
    ("Bardeleben", "Bardeleben"),
    ("Berger", "Berger"),
    ("Bernstein", "Bernstein"),
    ("Bird", "Bird"),
    ("Blackburne", "Blackburne"),
    ("Bogoljubow", "Bogoljubow"),
    ("Boleslavsky", "Boleslawski"),
    ("Botvinnik", "Botwinnik"),
    ("Breyer", "Breyer"),
    ("Brinckmann", "Brinckmann"),
    ("Bronstein", "Bronstein"),
    ("Capablanca", "Capablanca"),
    ("Charousek", "Charousek"),
    ("Chigorin", "Tschigorin"),
    ("Cochrane", "Cochrane"),
    ("Colle", "Colle"),
    ("Cozio", "Cozio"),
    ("Cunningham", "Cunningham"),
    ("Czerniak", "Czerniak"),
    ("Damiano", "Damiano"),
    ("Duras", "Duras"),
    ("Euwe", "Euwe"),
    ("Falkbeer", "Falkbeer"),
    ("Fischer", "Fischer"),
    ("Flohr", "Flohr"),
    ("Fritz", "Fritz"),
    ("Geller", "Geller"),
    ("Greco", "Greco"),
    ("Grünfeld", "Grünfeld"),
    ("Gunsberg", "Gunsberg"),
    ("Göring", "Göring"),
    ("Hanham", "Hanham"),
    ("Harrwitz", "Harrwitz"),
    ("Horwitz", "Horwitz"),
    ("Janowski", "Janowski"),
    ("Kan", "Kan"),
    ("Karpov", "Karpow"),
    ("Kasparov", "Kasparow"),
    ("Kasparov-Petrosian", "Kasparow-Petrosjan"),
    ("Keres", "Keres"),
    ("Kieseritzky", "Kieseritzky"),
    ("Kmoch", "Kmoch"),
    ("Korchnoi", "Kortschnoi"),
    ("Kotov", "Kotow"),
    ("Krause", "Krause"),
    ("La Bourdonnais", "La Bourdonnais"),
    ("Larsen", "Larsen"),
    ("Lasker", "Lasker"),
    ("Lasker-Pelikan", "Lasker-Pelikan"),
    ("Lemberger", "Lemberger"),
    ("Leonhardt", "Leonhardt"),
    ("Levenfish", "Lewenfisch"),
    ("Lolli", "Lolli"),
    ("Marshall", "Marshall"),
    ("Maróczy", "Maróczy"),
    ("Max Lange", "Max Lange"),
    ("Mayet", "Mayet"),
    ("McCutcheon", "McCutcheon"),
    ("McDonnell", "McDonnell"),
    ("Mieses", "Mieses"),
    ("Miles", "Miles"),
    ("Milner-Barry", "Milner-Barry"),
    ("Morphy", "Morphy"),
    ("Muzio", "Muzio"),
    ("Najdorf", "Najdorf"),
    ("Nimzowitsch", "Nimzowitsch"),
    ("Noa", "Noa"),
    ("Noteboom", "Noteboom"),
    ("O'Kelly", "O'Kelly"),
    ("Pachman", "Pachman"),
    ("Panno", "Panno"),
    ("Panov", "Panow"),
    ("Paulsen", "Paulsen"),
    ("Petrosian", "Petrosjan"),
    ("Philidor", "Philidor"),
    ("Pillsbury", "Pillsbury"),
    ("Pirc", "Pirc"),
    ("Polerio", "Polerio"),
    ("Polugaevsky", "Polugajewski"),
    ("Ponziani", "Ponziani"),
    ("Richter", "Richter"),
    ("Richter-Rauzer", "Richter-Rauser"),
    ("Rosenthal", "Rosenthal"),
    ("Rosentreter", "Rosentreter"),
    ("Rossolimo", "Rossolimo"),
    ("Rubinstein", "Rubinstein"),
    ("Réti", "Réti"),
    ("Salvio", "Salvio"),
    ("Schallopp", "Schallopp"),
    ("Schlechter", "Schlechter"),
    ("Schliemann", "Schliemann"),
    ("Smith-Morra", "Smith-Morra"),
    ("Smyslov", "Smyslow"),
    ("Spassky", "Spasski"),
    ("Spielmann", "Spielmann"),
    ("Staunton", "Staunton"),
    ("Steiner", "Steiner"),
    ("Steinitz", "Steinitz"),
    ("Stoltz", "Stoltz"),
    ("Sveshnikov", "Sweschnikow"),
    ("Sämisch", "Sämisch"),
    ("Taimanov", "Taimanow"),
    ("Tal", "Tal"),
    ("Tarrasch", "Tarrasch"),
    ("Tartakower", "Tartakower"),
    ("Teichmann", "Teichmann"),
    ("Torre", "Torre"),
    ("Winawer", "Winawer"),
    ("Yates", "Yates"),
    ("Zukertort", "Zukertort"),
];

/// The kind words after a person's name, and their German.
pub(super) const KINDS: [(&str, &str); 6] = [
    ("Attack", "Angriff"),
    ("Countergambit", "Gegengambit"),
    ("Defense", "Verteidigung"),
    ("Gambit", "Gambit"),
    ("System", "System"),
    ("Variation", "Variante"),
];

fn lookup(table: &[(&'static str, &'static str)], english: &str) -> Option<&'static str> {
    table
        .binary_search_by_key(&english, |&(en, _)| en)
        .ok()
        .map(|i| table[i].1)
}

/// The German name of an opening ("Italian Game: Evans Gambit" → "Italienische Partie:
/// Evansgambit"), or the name unchanged when its family has no established German name.
pub fn german_name(name: &str) -> Cow<'_, str> {
    let (family, variation) = match name.split_once(": ") {
        Some((family, variation)) => (family, Some(variation)),
        None => (name, None),
    };
    let Some(german) = lookup(&FAMILIES, family) else {
        return Cow::Borrowed(name);
    };
    match variation {
        None => Cow::Borrowed(german),
        Some(variation) => match german_variation(family, variation) {
            Some(v) => Cow::Owned(format!("{german}: {v}")),
            None => Cow::Owned(format!("{german}: {variation}")),
        },
    }
}

/// The variation part in German, or `None` unless every part of it translates.
pub(super) fn german_variation(family: &str, variation: &str) -> Option<String> {
    let parts = variation
        .split(", ")
        .map(|part| german_part(family, part))
        .collect::<Option<Vec<_>>>()?;
    Some(parts.join(", "))
}

/// One part of a variation ("Najdorf Variation") in German, if it has a correct one.
fn german_part(family: &str, part: &str) -> Option<Cow<'static, str>> {
    // The Italian Game's "Two Knights Defense" is the Zweispringerspiel; the Queen's Gambit
    // Declined has another line of that English name.
    if (family, part) == ("Italian Game", "Two Knights Defense") {
        return Some(Cow::Borrowed("Zweispringerspiel im Nachzuge"));
    }
    if let Some(german) = lookup(&PHRASES, part) {
        return Some(Cow::Borrowed(german));
    }
    for (suffix, adjective) in [(" Accepted", "Angenommenes"), (" Declined", "Abgelehntes")] {
        if let Some(gambit) = part.strip_suffix(suffix) {
            // Only gambits: the adjective's ending is the neuter one (das Gambit).
            let german = german_part(family, gambit)?;
            return german
                .ends_with("ambit")
                .then(|| Cow::Owned(format!("{adjective} {german}")));
        }
    }
    let (person, kind) = part.rsplit_once(' ')?;
    let kind = lookup(&KINDS, kind)?;
    let person = lookup(&PEOPLE, person)?;
    // German joins every part of a compound with hyphens: "Max-Lange-Angriff".
    Some(Cow::Owned(format!("{}-{kind}", person.replace(' ', "-"))))
}

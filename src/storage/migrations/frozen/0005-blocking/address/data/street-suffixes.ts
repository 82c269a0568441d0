// Migration 0005's frozen copy of identity/address/data/street-suffixes.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * USPS Publication 28, Appendix C1 "Street Suffix Abbreviations": every primary street suffix
 * name, its Postal Service standard abbreviation, and the common names and abbreviations that
 * Publication 28 lists for it. Source: USPS Publication 28, Postal Addressing Standards
 * (https://pe.usps.com/text/pub28/28apc_002.htm). Publication 28 is a work of the United States
 * Government and is in the public domain; this table was written for Mailsure from it.
 *
 * One line per primary name: `STANDARD  PRIMARY-NAME  common forms…` (the standard abbreviation
 * and the primary name are also common forms). Read once by `../pub28.ts`.
 */
export const STREET_SUFFIX_TABLE = `
ALY   ALLEY       ALLEE ALLY ALY
ANX   ANEX        ANNEX ANNX ANX
ARC   ARCADE      ARC
AVE   AVENUE      AV AVE AVEN AVENU AVN AVNUE
BYU   BAYOU       BAYOO BYU
BCH   BEACH       BCH
BND   BEND        BND
BLF   BLUFF       BLF BLUF
BLFS  BLUFFS      BLFS
BTM   BOTTOM      BOT BTM BOTTM
BLVD  BOULEVARD   BLVD BOUL BOULV
BR    BRANCH      BR BRNCH
BRG   BRIDGE      BRDGE BRG
BRK   BROOK       BRK
BRKS  BROOKS      BRKS
BG    BURG        BG
BGS   BURGS       BGS
BYP   BYPASS      BYP BYPA BYPAS BYPS
CP    CAMP        CP CMP
CYN   CANYON      CANYN CNYN CYN
CPE   CAPE        CPE
CSWY  CAUSEWAY    CAUSWA CSWY
CTR   CENTER      CEN CENT CENTR CENTRE CNTER CNTR CTR
CTRS  CENTERS     CTRS
CIR   CIRCLE      CIR CIRC CIRCL CRCL CRCLE
CIRS  CIRCLES     CIRS
CLF   CLIFF       CLF
CLFS  CLIFFS      CLFS
CLB   CLUB        CLB
CMN   COMMON      CMN
CMNS  COMMONS     CMNS
COR   CORNER      COR
CORS  CORNERS     CORS
CRSE  COURSE      CRSE
CT    COURT       CT
CTS   COURTS      CTS
CV    COVE        CV
CVS   COVES       CVS
CRK   CREEK       CRK
CRES  CRESCENT    CRES CRSENT CRSNT
CRST  CREST       CRST
XING  CROSSING    CRSSNG XING
XRD   CROSSROAD   XRD
XRDS  CROSSROADS  XRDS
CURV  CURVE       CURV
DL    DALE        DL
DM    DAM         DM
DV    DIVIDE      DIV DV DVD
DR    DRIVE       DR DRIV DRV
DRS   DRIVES      DRS
EST   ESTATE      EST
ESTS  ESTATES     ESTS
EXPY  EXPRESSWAY  EXP EXPR EXPRESS EXPW EXPY
EXT   EXTENSION   EXT EXTN EXTNSN
EXTS  EXTENSIONS  EXTS
FALL  FALL
FLS   FALLS       FLS
FRY   FERRY       FRRY FRY
FLD   FIELD       FLD
FLDS  FIELDS      FLDS
FLT   FLAT        FLT
FLTS  FLATS       FLTS
FRD   FORD        FRD
FRDS  FORDS       FRDS
FRST  FOREST      FORESTS FRST
FRG   FORGE       FORG FRG
FRGS  FORGES      FRGS
FRK   FORK        FRK
FRKS  FORKS       FRKS
FT    FORT        FRT FT
FWY   FREEWAY     FREEWY FRWAY FRWY FWY
GDN   GARDEN      GARDN GRDEN GRDN GDN
GDNS  GARDENS     GDNS GRDNS
GTWY  GATEWAY     GATEWY GATWAY GTWAY GTWY
GLN   GLEN        GLN
GLNS  GLENS       GLNS
GRN   GREEN       GRN
GRNS  GREENS      GRNS
GRV   GROVE       GROV GRV
GRVS  GROVES      GRVS
HBR   HARBOR      HARB HARBR HBR HRBOR
HBRS  HARBORS     HBRS
HVN   HAVEN       HVN
HTS   HEIGHTS     HT HTS
HWY   HIGHWAY     HIGHWY HIWAY HIWY HWAY HWY
HL    HILL        HL
HLS   HILLS       HLS
HOLW  HOLLOW      HLLW HOLLOWS HOLW HOLWS
INLT  INLET       INLT
IS    ISLAND      IS ISLND
ISS   ISLANDS     ISLNDS ISS
ISLE  ISLE        ISLES
JCT   JUNCTION    JCT JCTION JCTN JUNCTN JUNCTON
JCTS  JUNCTIONS   JCTNS JCTS
KY    KEY         KY
KYS   KEYS        KYS
KNL   KNOLL       KNL KNOL
KNLS  KNOLLS      KNLS
LK    LAKE        LK
LKS   LAKES       LKS
LAND  LAND
LNDG  LANDING     LNDG LNDNG
LN    LANE        LN
LGT   LIGHT       LGT
LGTS  LIGHTS      LGTS
LF    LOAF        LF
LCK   LOCK        LCK
LCKS  LOCKS       LCKS
LDG   LODGE       LDG LDGE LODG
LOOP  LOOP        LOOPS
MALL  MALL
MNR   MANOR       MNR
MNRS  MANORS      MNRS
MDW   MEADOW      MDW
MDWS  MEADOWS     MDWS MEDOWS
MEWS  MEWS
ML    MILL        ML
MLS   MILLS       MLS
MSN   MISSION     MISSN MSSN MSN
MTWY  MOTORWAY    MTWY
MT    MOUNT       MNT MT
MTN   MOUNTAIN    MNTAIN MNTN MOUNTIN MTIN MTN
MTNS  MOUNTAINS   MNTNS MTNS
NCK   NECK        NCK
ORCH  ORCHARD     ORCH ORCHRD
OVAL  OVAL        OVL
OPAS  OVERPASS    OPAS
PARK  PARK        PRK
PARK  PARKS
PKWY  PARKWAY     PARKWY PKWAY PKWY PKY
PKWY  PARKWAYS    PKWYS
PASS  PASS
PSGE  PASSAGE     PSGE
PATH  PATH        PATHS
PIKE  PIKE        PIKES
PNE   PINE        PNE
PNES  PINES       PNES
PL    PLACE       PL
PLN   PLAIN       PLN
PLNS  PLAINS      PLNS
PLZ   PLAZA       PLZ PLZA
PT    POINT       PT
PTS   POINTS      PTS
PRT   PORT        PRT
PRTS  PORTS       PRTS
PR    PRAIRIE     PR PRR
RADL  RADIAL      RAD RADIEL RADL
RAMP  RAMP
RNCH  RANCH       RANCHES RNCH RNCHS
RPD   RAPID       RPD
RPDS  RAPIDS      RPDS
RST   REST        RST
RDG   RIDGE       RDG RDGE
RDGS  RIDGES      RDGS
RIV   RIVER       RIV RVR RIVR
RD    ROAD        RD
RDS   ROADS       RDS
RTE   ROUTE       RTE
ROW   ROW
RUE   RUE
RUN   RUN
SHL   SHOAL       SHL
SHLS  SHOALS      SHLS
SHR   SHORE       SHOAR SHR
SHRS  SHORES      SHOARS SHRS
SKWY  SKYWAY      SKWY
SPG   SPRING      SPG SPNG SPRNG
SPGS  SPRINGS     SPGS SPNGS SPRNGS
SPUR  SPUR
SPUR  SPURS
SQ    SQUARE      SQ SQR SQRE SQU
SQS   SQUARES     SQRS SQS
STA   STATION     STA STATN STN
STRA  STRAVENUE   STRA STRAV STRAVEN STRAVN STRVN STRVNUE
STRM  STREAM      STREME STRM
ST    STREET      STRT ST STR
STS   STREETS     STS
SMT   SUMMIT      SMT SUMIT SUMITT
TER   TERRACE     TER TERR
TRWY  THROUGHWAY  TRWY
TRCE  TRACE       TRACES TRCE
TRAK  TRACK       TRACKS TRAK TRK TRKS
TRFY  TRAFFICWAY  TRFY
TRL   TRAIL       TRAILS TRL TRLS
TRLR  TRAILER     TRLR TRLRS
TUNL  TUNNEL      TUNEL TUNL TUNLS TUNNELS TUNNL
TPKE  TURNPIKE    TRNPK TURNPK TPKE
UPAS  UNDERPASS   UPAS
UN    UNION       UN
UNS   UNIONS      UNS
VLY   VALLEY      VALLY VLLY VLY
VLYS  VALLEYS     VLYS
VIA   VIADUCT     VDCT VIA VIADCT
VW    VIEW        VW
VWS   VIEWS       VWS
VLG   VILLAGE     VILL VILLAG VILLG VILLIAGE VLG
VLGS  VILLAGES    VLGS
VL    VILLE       VL
VIS   VISTA       VIS VIST VST VSTA
WALK  WALK
WALK  WALKS
WALL  WALL
WAY   WAY         WY
WAYS  WAYS
WL    WELL        WL
WLS   WELLS       WLS
`;

/**
 * Forms earlier editions of Publication 28 listed and lists still carry, as Perl's
 * Geo::StreetAddress::US and parse-address keep them (`CRT`, `HGTS`, `TPK`). One line per
 * standard abbreviation: `STANDARD  forms…`. Two-letter forms that clash with other words
 * (`CR` county road, `LA` Louisiana, `PK`, `TR`, `CK`) are left out.
 */
export const STREET_SUFFIX_OLDER_FORMS = `
CSWY  CAUSWAY
CRES  CRECENT CRESENT CRSCNT
XING  CRSSING
CT    CRT
HVN   HAVN
HTS   HEIGHT HGTS
LN    LANES
PR    PRARIE
STRA  STRAVE
TPKE  TPK TRPK
`;

/**
 * The suffixes that end most US street names (Mailsure's choice, not a Publication 28 list).
 * A rarer suffix word after a lone directional is read as the name (`N WELLS` is North Wells
 * Street, `E LAKE` East Lake), while a common one stays the suffix (`NORTH AVE` is the avenue
 * named North, as Publication 28 reads it).
 */
export const COMMON_SUFFIXES: readonly string[] = [
  'ALY',
  'AVE',
  'BLVD',
  'CIR',
  'CT',
  'CV',
  'DR',
  'EXPY',
  'FWY',
  'HWY',
  'LN',
  'LOOP',
  'PKWY',
  'PL',
  'PLZ',
  'RD',
  'ROW',
  'SQ',
  'ST',
  'TER',
  'TPKE',
  'TRL',
  'WAY',
  'XING',
];

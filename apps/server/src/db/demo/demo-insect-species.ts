/** One pest of the demo catalogue: names, order, hosts, and its hints and advice per language. */
export interface DemoSpecies {
  /** Its look on a trap's tray (@shuili/sim INSECT_LOOKS). */
  look: string;
  nameZh: string;
  nameLatin: string;
  nameEn: string;
  order: 'lepidoptera' | 'hemiptera' | 'coleoptera' | 'orthoptera';
  hosts: string;
  hints: { zh: string; tw: string; en: string };
  advice: { zh: string; tw: string; en: string };
}

/**
 * The common pests a light trap catches in the demo district's rice, maize, wheat, cotton and
 * vegetable fields, as a plant-protection station describes them to farmers.
 */
export const DEMO_SPECIES: readonly DemoSpecies[] = [
  {
    look: 'fallArmyworm',
    nameZh: '草地贪夜蛾',
    nameLatin: 'Spodoptera frugiperda',
    nameEn: 'Fall armyworm',
    order: 'lepidoptera',
    hosts: '玉米、高粱、水稻、甘蔗',
    hints: {
      zh: '成虫翅展32～40 mm；雄蛾前翅灰棕色，中部有明显的白色斑，顶角有白斑。幼虫头部有白色倒“Y”形纹，腹末节背面4个黑色毛瘤呈正方形排列。',
      tw: '成蟲翅展32～40 mm；雄蛾前翅灰棕色，中部有明顯的白色斑，頂角有白斑。幼蟲頭部有白色倒「Y」形紋，腹末節背面4個黑色毛瘤呈正方形排列。',
      en: 'Wingspan 32–40 mm; the male forewing is grey-brown with a conspicuous white spot in the middle and a white patch at the tip. The larva has a pale inverted "Y" on its head and four black spots in a square on the last abdominal segment.',
    },
    advice: {
      zh: '灯光和性诱剂诱杀成虫。玉米心叶期查虫，百株虫量超过5～10头时，于低龄幼虫期喷施氯虫苯甲酰胺或甲氨基阿维菌素苯甲酸盐，药液对准心叶；轮换用药，保护天敌。',
      tw: '燈光和性誘劑誘殺成蟲。玉米心葉期查蟲，百株蟲量超過5～10頭時，於低齡幼蟲期噴施氯蟲苯甲醯胺或甲氨基阿維菌素苯甲酸鹽，藥液對準心葉；輪換用藥，保護天敵。',
      en: 'Trap moths with light and pheromone lures. Scout maize in the whorl stage; above 5–10 larvae per 100 plants, spray young larvae with chlorantraniliprole or emamectin benzoate into the whorl. Rotate modes of action and spare natural enemies.',
    },
  },
  {
    look: 'brownPlanthopper',
    nameZh: '褐飞虱',
    nameLatin: 'Nilaparvata lugens',
    nameEn: 'Brown planthopper',
    order: 'hemiptera',
    hosts: '水稻',
    hints: {
      zh: '长翅型体长3.6～4.8 mm，黄褐至黑褐色，有油状光泽；前胸背板有3条隆起线。群集于稻丛基部刺吸，严重时稻株成片倒伏枯死（“冒穿”）。',
      tw: '長翅型體長3.6～4.8 mm，黃褐至黑褐色，有油狀光澤；前胸背板有3條隆起線。群集於稻叢基部刺吸，嚴重時稻株成片倒伏枯死（「冒穿」）。',
      en: 'Macropterous adults 3.6–4.8 mm, yellow- to black-brown and glossy, with three ridges on the pronotum. They cluster at the base of rice hills and suck sap; heavy attacks cause patches of collapsed, dead plants ("hopperburn").',
    },
    advice: {
      zh: '种植抗虫品种，避免偏施氮肥。分蘖末期至孕穗期百丛虫量超过1000～1500头时，用吡蚜酮或烯啶虫胺喷雾，药液喷到稻丛基部；慎用拟除虫菊酯类，以免诱发再猖獗。',
      tw: '種植抗蟲品種，避免偏施氮肥。分蘖末期至孕穗期百叢蟲量超過1000～1500頭時，用吡蚜酮或烯啶蟲胺噴霧，藥液噴到稻叢基部；慎用擬除蟲菊酯類，以免誘發再猖獗。',
      en: 'Grow resistant varieties and avoid excess nitrogen. From late tillering to booting, above 1,000–1,500 hoppers per 100 hills, spray pymetrozine or nitenpyram onto the base of the hills. Avoid pyrethroids, which trigger resurgence.',
    },
  },
  {
    look: 'whiteBackedPlanthopper',
    nameZh: '白背飞虱',
    nameLatin: 'Sogatella furcifera',
    nameEn: 'White-backed planthopper',
    order: 'hemiptera',
    hosts: '水稻',
    hints: {
      zh: '体长3.8～4.5 mm，灰黄色；前胸背板中央有明显的黄白色五角形斑（“白背”），翅半透明。多在水稻生长前中期发生，传播南方水稻黑条矮缩病。',
      tw: '體長3.8～4.5 mm，灰黃色；前胸背板中央有明顯的黃白色五角形斑（「白背」），翅半透明。多在水稻生長前中期發生，傳播南方水稻黑條矮縮病。',
      en: 'Body 3.8–4.5 mm, greyish yellow, with a pale five-sided patch in the middle of the pronotum (the "white back") and translucent wings. Peaks early in the season and transmits southern rice black-streaked dwarf virus.',
    },
    advice: {
      zh: '与褐飞虱同查同治。秧田和本田前期及时防治以控制病毒病传播；选用吡蚜酮、呋虫胺等，注意轮换。',
      tw: '與褐飛蝨同查同治。秧田和本田前期及時防治以控制病毒病傳播；選用吡蚜酮、呋蟲胺等，注意輪換。',
      en: 'Scout and treat together with the brown planthopper. Control it in the seedbed and early in the paddy to stop the virus spreading; use pymetrozine or dinotefuran, in rotation.',
    },
  },
  {
    look: 'stripedStemBorer',
    nameZh: '二化螟',
    nameLatin: 'Chilo suppressalis',
    nameEn: 'Striped stem borer',
    order: 'lepidoptera',
    hosts: '水稻、茭白',
    hints: {
      zh: '雌蛾体长12～15 mm，前翅近长方形，灰黄至淡褐色，外缘有7个小黑点。幼虫淡褐色，背面有5条褐色纵线；蛀茎造成枯鞘、枯心和白穗。',
      tw: '雌蛾體長12～15 mm，前翅近長方形，灰黃至淡褐色，外緣有7個小黑點。幼蟲淡褐色，背面有5條褐色縱線；蛀莖造成枯鞘、枯心和白穗。',
      en: 'Female moth 12–15 mm with near-rectangular, straw to light brown forewings bearing seven small black dots along the outer margin. Larvae are light brown with five dark stripes; they bore stems, causing dead sheaths, dead hearts and white heads.',
    },
    advice: {
      zh: '冬春季灌水翻耕，杀灭越冬幼虫；性诱剂诱杀成虫。卵孵盛期至低龄幼虫期、枯鞘丛率达8%～10%时，用氯虫苯甲酰胺或阿维菌素喷雾，施药后保水3～5 cm。',
      tw: '冬春季灌水翻耕，殺滅越冬幼蟲；性誘劑誘殺成蟲。卵孵盛期至低齡幼蟲期、枯鞘叢率達8%～10%時，用氯蟲苯甲醯胺或阿維菌素噴霧，施藥後保水3～5 cm。',
      en: 'Flood and plough stubble in winter and spring to kill overwintering larvae; trap moths with pheromones. At peak hatching, when 8–10 % of hills show dead sheaths, spray chlorantraniliprole or abamectin and keep 3–5 cm of water in the field.',
    },
  },
  {
    look: 'cottonBollworm',
    nameZh: '棉铃虫',
    nameLatin: 'Helicoverpa armigera',
    nameEn: 'Cotton bollworm',
    order: 'lepidoptera',
    hosts: '棉花、玉米、番茄、小麦、大豆',
    hints: {
      zh: '成虫体长15～17 mm，前翅黄褐或灰褐色，有环状纹和肾状纹，外横线外侧有深灰色宽带。幼虫体色多变，体表密生小刺，钻蛀蕾铃、果实。',
      tw: '成蟲體長15～17 mm，前翅黃褐或灰褐色，有環狀紋和腎狀紋，外橫線外側有深灰色寬帶。幼蟲體色多變，體表密生小刺，鑽蛀蕾鈴、果實。',
      en: 'Moth 15–17 mm; forewings yellow- to grey-brown with ring and kidney marks and a broad dark band near the margin. Larvae vary in colour, have small spines on the skin and bore into squares, bolls and fruit.',
    },
    advice: {
      zh: '杨树枝把、杀虫灯、性诱剂诱杀成虫；种植转Bt基因抗虫棉。百株低龄幼虫超过10头时，用氯虫苯甲酰胺、茚虫威或棉铃虫核型多角体病毒喷雾。',
      tw: '楊樹枝把、殺蟲燈、性誘劑誘殺成蟲；種植轉Bt基因抗蟲棉。百株低齡幼蟲超過10頭時，用氯蟲苯甲醯胺、茚蟲威或棉鈴蟲核型多角體病毒噴霧。',
      en: 'Trap moths with poplar twig bundles, light traps and pheromones; grow Bt cotton. Above 10 young larvae per 100 plants, spray chlorantraniliprole, indoxacarb or Helicoverpa NPV.',
    },
  },
  {
    look: 'blackCutworm',
    nameZh: '小地老虎',
    nameLatin: 'Agrotis ipsilon',
    nameEn: 'Black cutworm',
    order: 'lepidoptera',
    hosts: '玉米、棉花、蔬菜、烟草等作物苗期',
    hints: {
      zh: '成虫体长16～23 mm，前翅暗褐色；肾状纹外侧有一尖端向外的黑色楔形斑，与亚外缘线上两个尖端向内的楔形斑相对。幼虫夜间出土咬断幼苗。',
      tw: '成蟲體長16～23 mm，前翅暗褐色；腎狀紋外側有一尖端向外的黑色楔形斑，與亞外緣線上兩個尖端向內的楔形斑相對。幼蟲夜間出土咬斷幼苗。',
      en: 'Moth 16–23 mm with dark brown forewings; a black dagger mark pointing outwards beyond the kidney spot faces two daggers pointing inwards near the margin. Larvae come up at night and cut seedlings at the soil line.',
    },
    advice: {
      zh: '糖醋液、黑光灯诱杀成虫；清除田间杂草，减少产卵场所。幼苗期傍晚撒施毒饵（炒香麦麸拌敌百虫），或用辛硫磷灌根。',
      tw: '糖醋液、黑光燈誘殺成蟲；清除田間雜草，減少產卵場所。幼苗期傍晚撒施毒餌（炒香麥麩拌敵百蟲），或用辛硫磷灌根。',
      en: 'Trap moths with sugar-vinegar bait and black-light lamps; clear weeds where they lay eggs. At the seedling stage spread poison bait (roasted bran with trichlorfon) at dusk, or drench the roots with phoxim.',
    },
  },
  {
    look: 'riceLeafFolder',
    nameZh: '稻纵卷叶螟',
    nameLatin: 'Cnaphalocrocis medinalis',
    nameEn: 'Rice leaf folder',
    order: 'lepidoptera',
    hosts: '水稻',
    hints: {
      zh: '成虫体长7～9 mm，黄褐色，前翅有两条褐色横线，外缘有暗褐色宽带。幼虫吐丝将稻叶纵卷成筒状，在内取食叶肉，留下白色条斑。',
      tw: '成蟲體長7～9 mm，黃褐色，前翅有兩條褐色橫線，外緣有暗褐色寬帶。幼蟲吐絲將稻葉縱捲成筒狀，在內取食葉肉，留下白色條斑。',
      en: 'Moth 7–9 mm, yellow-brown, with two brown cross-lines and a broad dark border on the forewing. Larvae fold rice leaves lengthwise with silk and feed inside, leaving white streaks.',
    },
    advice: {
      zh: '灯光诱杀，保护蜘蛛、寄生蜂等天敌。分蘖期百丛幼虫超过60头、孕穗后超过40头时，于卵孵盛期用氯虫苯甲酰胺或苏云金杆菌喷雾。',
      tw: '燈光誘殺，保護蜘蛛、寄生蜂等天敵。分蘖期百叢幼蟲超過60頭、孕穗後超過40頭時，於卵孵盛期用氯蟲苯甲醯胺或蘇雲金桿菌噴霧。',
      en: 'Use light traps and protect spiders and parasitoid wasps. Above 60 larvae per 100 hills at tillering (40 after booting), spray chlorantraniliprole or Bacillus thuringiensis at peak hatching.',
    },
  },
  {
    look: 'asianCornBorer',
    nameZh: '亚洲玉米螟',
    nameLatin: 'Ostrinia furnacalis',
    nameEn: 'Asian corn borer',
    order: 'lepidoptera',
    hosts: '玉米、高粱、谷子',
    hints: {
      zh: '成虫体长10～13 mm，黄褐色，前翅有两条褐色波状横纹，两纹之间有两个褐色斑。幼虫蛀食心叶、茎秆和雌穗，茎上可见蛀孔和虫粪。',
      tw: '成蟲體長10～13 mm，黃褐色，前翅有兩條褐色波狀橫紋，兩紋之間有兩個褐色斑。幼蟲蛀食心葉、莖稈和雌穗，莖上可見蛀孔和蟲糞。',
      en: 'Moth 10–13 mm, yellow-brown, with two wavy brown cross-lines and two brown spots between them on the forewing. Larvae feed in the whorl, then bore stalks and ears, leaving holes and frass.',
    },
    advice: {
      zh: '秸秆粉碎还田，压低越冬虫源；产卵期释放赤眼蜂。心叶末期撒施Bt颗粒剂或喷施氯虫苯甲酰胺。',
      tw: '秸稈粉碎還田，壓低越冬蟲源；產卵期釋放赤眼蜂。心葉末期撒施Bt顆粒劑或噴施氯蟲苯甲醯胺。',
      en: 'Shred stalks into the soil to reduce overwintering larvae; release Trichogramma wasps during egg laying. At the late whorl stage apply Bt granules or chlorantraniliprole.',
    },
  },
  {
    look: 'orientalArmyworm',
    nameZh: '黏虫',
    nameLatin: 'Mythimna separata',
    nameEn: 'Oriental armyworm',
    order: 'lepidoptera',
    hosts: '小麦、玉米、水稻、谷子',
    hints: {
      zh: '成虫体长17～20 mm，淡黄褐至灰褐色，前翅中央近前缘有2个淡黄色圆斑，外侧圆斑下方有1个小白点。远距离迁飞，暴发时幼虫成群取食叶片。',
      tw: '成蟲體長17～20 mm，淡黃褐至灰褐色，前翅中央近前緣有2個淡黃色圓斑，外側圓斑下方有1個小白點。遠距離遷飛，暴發時幼蟲成群取食葉片。',
      en: 'Moth 17–20 mm, pale yellow- to grey-brown, with two pale round spots near the middle of the forewing and a small white dot below the outer one. A long-distance migrant; in outbreaks larvae strip leaves in swarms.',
    },
    advice: {
      zh: '草把、糖醋液诱蛾诱卵。幼虫3龄前，麦田百株30头、玉米田百株50头以上时，用甲氨基阿维菌素苯甲酸盐或氯虫苯甲酰胺喷雾。',
      tw: '草把、糖醋液誘蛾誘卵。幼蟲3齡前，麥田百株30頭、玉米田百株50頭以上時，用甲氨基阿維菌素苯甲酸鹽或氯蟲苯甲醯胺噴霧。',
      en: 'Attract moths and eggs with straw bundles and sugar-vinegar bait. Before the third instar, above 30 larvae per 100 wheat plants or 50 per 100 maize plants, spray emamectin benzoate or chlorantraniliprole.',
    },
  },
  {
    look: 'beetArmyworm',
    nameZh: '甜菜夜蛾',
    nameLatin: 'Spodoptera exigua',
    nameEn: 'Beet armyworm',
    order: 'lepidoptera',
    hosts: '甜菜、葱、甘蓝等蔬菜、棉花、大豆',
    hints: {
      zh: '成虫体长8～10 mm，灰褐色，前翅环状纹和肾状纹粉黄色。幼虫体色多变，气门下线为明显的黄白色纵带，初孵幼虫群集叶背结网取食。',
      tw: '成蟲體長8～10 mm，灰褐色，前翅環狀紋和腎狀紋粉黃色。幼蟲體色多變，氣門下線為明顯的黃白色縱帶，初孵幼蟲群集葉背結網取食。',
      en: 'Moth 8–10 mm, grey-brown, with pinkish-yellow ring and kidney marks. Larvae vary in colour but always have a clear pale stripe along the sides; young larvae feed in groups under webbing on the leaf underside.',
    },
    advice: {
      zh: '性诱剂诱杀成虫；及时摘除卵块和初孵幼虫团。低龄幼虫期傍晚喷施甲氧虫酰肼或虫螨腈；该虫抗药性强，注意轮换用药。',
      tw: '性誘劑誘殺成蟲；及時摘除卵塊和初孵幼蟲團。低齡幼蟲期傍晚噴施甲氧蟲醯肼或蟲蟎腈；該蟲抗藥性強，注意輪換用藥。',
      en: 'Trap moths with pheromones; pick off egg masses and clusters of young larvae. Spray young larvae at dusk with methoxyfenozide or chlorfenapyr; it resists many insecticides, so rotate them.',
    },
  },
  {
    look: 'darkChafer',
    nameZh: '暗黑鳃金龟',
    nameLatin: 'Holotrichia parallela',
    nameEn: 'Dark chafer',
    order: 'coleoptera',
    hosts: '花生、大豆、玉米、薯类（幼虫为蛴螬）',
    hints: {
      zh: '成虫体长17～22 mm，长椭圆形，黑褐色无光泽，鞘翅各有4条纵肋。夜出活动，趋光性强。幼虫（蛴螬）乳白色、体呈C形，咬食地下根茎和荚果。',
      tw: '成蟲體長17～22 mm，長橢圓形，黑褐色無光澤，鞘翅各有4條縱肋。夜出活動，趨光性強。幼蟲（蠐螬）乳白色、體呈C形，咬食地下根莖和莢果。',
      en: 'Beetle 17–22 mm, elongate oval, dull black-brown, with four ribs on each wing case. Active at night and strongly drawn to light. Its C-shaped white grubs chew roots, tubers and peanut pods underground.',
    },
    advice: {
      zh: '成虫盛发期灯光诱杀，或用榆、杨树枝把蘸药诱杀。播种时用辛硫磷颗粒剂或噻虫嗪种衣剂处理，防治蛴螬。',
      tw: '成蟲盛發期燈光誘殺，或用榆、楊樹枝把蘸藥誘殺。播種時用辛硫磷顆粒劑或噻蟲嗪種衣劑處理，防治蠐螬。',
      en: 'During the beetle flight, trap them with light or with insecticide-dipped elm and poplar twigs. At sowing, treat with phoxim granules or a thiamethoxam seed coating against the grubs.',
    },
  },
  {
    look: 'moleCricket',
    nameZh: '东方蝼蛄',
    nameLatin: 'Gryllotalpa orientalis',
    nameEn: 'Oriental mole cricket',
    order: 'orthoptera',
    hosts: '小麦、玉米、蔬菜苗床',
    hints: {
      zh: '体长30～35 mm，灰褐色，密被细毛；前足为开掘足，前胸背板卵圆形。在表土钻隧道，咬断幼苗根部，使苗床成片枯死。',
      tw: '體長30～35 mm，灰褐色，密被細毛；前足為開掘足，前胸背板卵圓形。在表土鑽隧道，咬斷幼苗根部，使苗床成片枯死。',
      en: 'Body 30–35 mm, grey-brown and finely hairy, with spade-like digging forelegs and an oval pronotum. It tunnels through the topsoil and cuts seedling roots, killing patches of a seedbed.',
    },
    advice: {
      zh: '灯光诱杀；用马粪、鲜草堆诱集后人工捕杀。傍晚撒施毒饵（麦麸拌辛硫磷）；施用充分腐熟的有机肥。',
      tw: '燈光誘殺；用馬糞、鮮草堆誘集後人工捕殺。傍晚撒施毒餌（麥麩拌辛硫磷）；施用充分腐熟的有機肥。',
      en: 'Use light traps; lure them under heaps of horse manure or fresh grass and collect them. Spread poison bait (bran with phoxim) at dusk and use only well-rotted manure.',
    },
  },
];

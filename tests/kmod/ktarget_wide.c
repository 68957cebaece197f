// SPDX-License-Identifier: GPL-2.0
/*
 * A thousand functions for one pattern (issue 32: one fprobe over many
 * functions, its cost per call at N = 1, 100 and 1,000): ktarget_wide_0000
 * to _1023, each counting its own calls. "wide N R" calls the first N
 * round-robin R times, back to back ("elapsed" reads the ns);
 * "wide_counts" reads each one's calls since load.
 */
#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/timekeeping.h>

#include "ktarget_wide.h"

static u32 counts[KTARGET_WIDE];
static struct debugfs_u32_array counts_array = { counts, ARRAY_SIZE(counts) };

/*
 * Distinct bodies (identical ones could be folded into one), never inlined;
 * 1##i - 10000 is i as a decimal number (i has leading zeros).
 */
#define WIDE(i)							\
	static noinline int ktarget_wide_##i(void)		\
	{							\
		WRITE_ONCE(counts[1##i - 10000], counts[1##i - 10000] + 1);	\
		barrier();					\
		return 1##i - 10000;				\
	}

WIDE(0000) WIDE(0001) WIDE(0002) WIDE(0003) WIDE(0004) WIDE(0005)
WIDE(0006) WIDE(0007) WIDE(0008) WIDE(0009) WIDE(0010) WIDE(0011)
WIDE(0012) WIDE(0013) WIDE(0014) WIDE(0015) WIDE(0016) WIDE(0017)
WIDE(0018) WIDE(0019) WIDE(0020) WIDE(0021) WIDE(0022) WIDE(0023)
WIDE(0024) WIDE(0025) WIDE(0026) WIDE(0027) WIDE(0028) WIDE(0029)
WIDE(0030) WIDE(0031) WIDE(0032) WIDE(0033) WIDE(0034) WIDE(0035)
WIDE(0036) WIDE(0037) WIDE(0038) WIDE(0039) WIDE(0040) WIDE(0041)
WIDE(0042) WIDE(0043) WIDE(0044) WIDE(0045) WIDE(0046) WIDE(0047)
WIDE(0048) WIDE(0049) WIDE(0050) WIDE(0051) WIDE(0052) WIDE(0053)
WIDE(0054) WIDE(0055) WIDE(0056) WIDE(0057) WIDE(0058) WIDE(0059)
WIDE(0060) WIDE(0061) WIDE(0062) WIDE(0063) WIDE(0064) WIDE(0065)
WIDE(0066) WIDE(0067) WIDE(0068) WIDE(0069) WIDE(0070) WIDE(0071)
WIDE(0072) WIDE(0073) WIDE(0074) WIDE(0075) WIDE(0076) WIDE(0077)
WIDE(0078) WIDE(0079) WIDE(0080) WIDE(0081) WIDE(0082) WIDE(0083)
WIDE(0084) WIDE(0085) WIDE(0086) WIDE(0087) WIDE(0088) WIDE(0089)
WIDE(0090) WIDE(0091) WIDE(0092) WIDE(0093) WIDE(0094) WIDE(0095)
WIDE(0096) WIDE(0097) WIDE(0098) WIDE(0099) WIDE(0100) WIDE(0101)
WIDE(0102) WIDE(0103) WIDE(0104) WIDE(0105) WIDE(0106) WIDE(0107)
WIDE(0108) WIDE(0109) WIDE(0110) WIDE(0111) WIDE(0112) WIDE(0113)
WIDE(0114) WIDE(0115) WIDE(0116) WIDE(0117) WIDE(0118) WIDE(0119)
WIDE(0120) WIDE(0121) WIDE(0122) WIDE(0123) WIDE(0124) WIDE(0125)
WIDE(0126) WIDE(0127) WIDE(0128) WIDE(0129) WIDE(0130) WIDE(0131)
WIDE(0132) WIDE(0133) WIDE(0134) WIDE(0135) WIDE(0136) WIDE(0137)
WIDE(0138) WIDE(0139) WIDE(0140) WIDE(0141) WIDE(0142) WIDE(0143)
WIDE(0144) WIDE(0145) WIDE(0146) WIDE(0147) WIDE(0148) WIDE(0149)
WIDE(0150) WIDE(0151) WIDE(0152) WIDE(0153) WIDE(0154) WIDE(0155)
WIDE(0156) WIDE(0157) WIDE(0158) WIDE(0159) WIDE(0160) WIDE(0161)
WIDE(0162) WIDE(0163) WIDE(0164) WIDE(0165) WIDE(0166) WIDE(0167)
WIDE(0168) WIDE(0169) WIDE(0170) WIDE(0171) WIDE(0172) WIDE(0173)
WIDE(0174) WIDE(0175) WIDE(0176) WIDE(0177) WIDE(0178) WIDE(0179)
WIDE(0180) WIDE(0181) WIDE(0182) WIDE(0183) WIDE(0184) WIDE(0185)
WIDE(0186) WIDE(0187) WIDE(0188) WIDE(0189) WIDE(0190) WIDE(0191)
WIDE(0192) WIDE(0193) WIDE(0194) WIDE(0195) WIDE(0196) WIDE(0197)
WIDE(0198) WIDE(0199) WIDE(0200) WIDE(0201) WIDE(0202) WIDE(0203)
WIDE(0204) WIDE(0205) WIDE(0206) WIDE(0207) WIDE(0208) WIDE(0209)
WIDE(0210) WIDE(0211) WIDE(0212) WIDE(0213) WIDE(0214) WIDE(0215)
WIDE(0216) WIDE(0217) WIDE(0218) WIDE(0219) WIDE(0220) WIDE(0221)
WIDE(0222) WIDE(0223) WIDE(0224) WIDE(0225) WIDE(0226) WIDE(0227)
WIDE(0228) WIDE(0229) WIDE(0230) WIDE(0231) WIDE(0232) WIDE(0233)
WIDE(0234) WIDE(0235) WIDE(0236) WIDE(0237) WIDE(0238) WIDE(0239)
WIDE(0240) WIDE(0241) WIDE(0242) WIDE(0243) WIDE(0244) WIDE(0245)
WIDE(0246) WIDE(0247) WIDE(0248) WIDE(0249) WIDE(0250) WIDE(0251)
WIDE(0252) WIDE(0253) WIDE(0254) WIDE(0255) WIDE(0256) WIDE(0257)
WIDE(0258) WIDE(0259) WIDE(0260) WIDE(0261) WIDE(0262) WIDE(0263)
WIDE(0264) WIDE(0265) WIDE(0266) WIDE(0267) WIDE(0268) WIDE(0269)
WIDE(0270) WIDE(0271) WIDE(0272) WIDE(0273) WIDE(0274) WIDE(0275)
WIDE(0276) WIDE(0277) WIDE(0278) WIDE(0279) WIDE(0280) WIDE(0281)
WIDE(0282) WIDE(0283) WIDE(0284) WIDE(0285) WIDE(0286) WIDE(0287)
WIDE(0288) WIDE(0289) WIDE(0290) WIDE(0291) WIDE(0292) WIDE(0293)
WIDE(0294) WIDE(0295) WIDE(0296) WIDE(0297) WIDE(0298) WIDE(0299)
WIDE(0300) WIDE(0301) WIDE(0302) WIDE(0303) WIDE(0304) WIDE(0305)
WIDE(0306) WIDE(0307) WIDE(0308) WIDE(0309) WIDE(0310) WIDE(0311)
WIDE(0312) WIDE(0313) WIDE(0314) WIDE(0315) WIDE(0316) WIDE(0317)
WIDE(0318) WIDE(0319) WIDE(0320) WIDE(0321) WIDE(0322) WIDE(0323)
WIDE(0324) WIDE(0325) WIDE(0326) WIDE(0327) WIDE(0328) WIDE(0329)
WIDE(0330) WIDE(0331) WIDE(0332) WIDE(0333) WIDE(0334) WIDE(0335)
WIDE(0336) WIDE(0337) WIDE(0338) WIDE(0339) WIDE(0340) WIDE(0341)
WIDE(0342) WIDE(0343) WIDE(0344) WIDE(0345) WIDE(0346) WIDE(0347)
WIDE(0348) WIDE(0349) WIDE(0350) WIDE(0351) WIDE(0352) WIDE(0353)
WIDE(0354) WIDE(0355) WIDE(0356) WIDE(0357) WIDE(0358) WIDE(0359)
WIDE(0360) WIDE(0361) WIDE(0362) WIDE(0363) WIDE(0364) WIDE(0365)
WIDE(0366) WIDE(0367) WIDE(0368) WIDE(0369) WIDE(0370) WIDE(0371)
WIDE(0372) WIDE(0373) WIDE(0374) WIDE(0375) WIDE(0376) WIDE(0377)
WIDE(0378) WIDE(0379) WIDE(0380) WIDE(0381) WIDE(0382) WIDE(0383)
WIDE(0384) WIDE(0385) WIDE(0386) WIDE(0387) WIDE(0388) WIDE(0389)
WIDE(0390) WIDE(0391) WIDE(0392) WIDE(0393) WIDE(0394) WIDE(0395)
WIDE(0396) WIDE(0397) WIDE(0398) WIDE(0399) WIDE(0400) WIDE(0401)
WIDE(0402) WIDE(0403) WIDE(0404) WIDE(0405) WIDE(0406) WIDE(0407)
WIDE(0408) WIDE(0409) WIDE(0410) WIDE(0411) WIDE(0412) WIDE(0413)
WIDE(0414) WIDE(0415) WIDE(0416) WIDE(0417) WIDE(0418) WIDE(0419)
WIDE(0420) WIDE(0421) WIDE(0422) WIDE(0423) WIDE(0424) WIDE(0425)
WIDE(0426) WIDE(0427) WIDE(0428) WIDE(0429) WIDE(0430) WIDE(0431)
WIDE(0432) WIDE(0433) WIDE(0434) WIDE(0435) WIDE(0436) WIDE(0437)
WIDE(0438) WIDE(0439) WIDE(0440) WIDE(0441) WIDE(0442) WIDE(0443)
WIDE(0444) WIDE(0445) WIDE(0446) WIDE(0447) WIDE(0448) WIDE(0449)
WIDE(0450) WIDE(0451) WIDE(0452) WIDE(0453) WIDE(0454) WIDE(0455)
WIDE(0456) WIDE(0457) WIDE(0458) WIDE(0459) WIDE(0460) WIDE(0461)
WIDE(0462) WIDE(0463) WIDE(0464) WIDE(0465) WIDE(0466) WIDE(0467)
WIDE(0468) WIDE(0469) WIDE(0470) WIDE(0471) WIDE(0472) WIDE(0473)
WIDE(0474) WIDE(0475) WIDE(0476) WIDE(0477) WIDE(0478) WIDE(0479)
WIDE(0480) WIDE(0481) WIDE(0482) WIDE(0483) WIDE(0484) WIDE(0485)
WIDE(0486) WIDE(0487) WIDE(0488) WIDE(0489) WIDE(0490) WIDE(0491)
WIDE(0492) WIDE(0493) WIDE(0494) WIDE(0495) WIDE(0496) WIDE(0497)
WIDE(0498) WIDE(0499) WIDE(0500) WIDE(0501) WIDE(0502) WIDE(0503)
WIDE(0504) WIDE(0505) WIDE(0506) WIDE(0507) WIDE(0508) WIDE(0509)
WIDE(0510) WIDE(0511) WIDE(0512) WIDE(0513) WIDE(0514) WIDE(0515)
WIDE(0516) WIDE(0517) WIDE(0518) WIDE(0519) WIDE(0520) WIDE(0521)
WIDE(0522) WIDE(0523) WIDE(0524) WIDE(0525) WIDE(0526) WIDE(0527)
WIDE(0528) WIDE(0529) WIDE(0530) WIDE(0531) WIDE(0532) WIDE(0533)
WIDE(0534) WIDE(0535) WIDE(0536) WIDE(0537) WIDE(0538) WIDE(0539)
WIDE(0540) WIDE(0541) WIDE(0542) WIDE(0543) WIDE(0544) WIDE(0545)
WIDE(0546) WIDE(0547) WIDE(0548) WIDE(0549) WIDE(0550) WIDE(0551)
WIDE(0552) WIDE(0553) WIDE(0554) WIDE(0555) WIDE(0556) WIDE(0557)
WIDE(0558) WIDE(0559) WIDE(0560) WIDE(0561) WIDE(0562) WIDE(0563)
WIDE(0564) WIDE(0565) WIDE(0566) WIDE(0567) WIDE(0568) WIDE(0569)
WIDE(0570) WIDE(0571) WIDE(0572) WIDE(0573) WIDE(0574) WIDE(0575)
WIDE(0576) WIDE(0577) WIDE(0578) WIDE(0579) WIDE(0580) WIDE(0581)
WIDE(0582) WIDE(0583) WIDE(0584) WIDE(0585) WIDE(0586) WIDE(0587)
WIDE(0588) WIDE(0589) WIDE(0590) WIDE(0591) WIDE(0592) WIDE(0593)
WIDE(0594) WIDE(0595) WIDE(0596) WIDE(0597) WIDE(0598) WIDE(0599)
WIDE(0600) WIDE(0601) WIDE(0602) WIDE(0603) WIDE(0604) WIDE(0605)
WIDE(0606) WIDE(0607) WIDE(0608) WIDE(0609) WIDE(0610) WIDE(0611)
WIDE(0612) WIDE(0613) WIDE(0614) WIDE(0615) WIDE(0616) WIDE(0617)
WIDE(0618) WIDE(0619) WIDE(0620) WIDE(0621) WIDE(0622) WIDE(0623)
WIDE(0624) WIDE(0625) WIDE(0626) WIDE(0627) WIDE(0628) WIDE(0629)
WIDE(0630) WIDE(0631) WIDE(0632) WIDE(0633) WIDE(0634) WIDE(0635)
WIDE(0636) WIDE(0637) WIDE(0638) WIDE(0639) WIDE(0640) WIDE(0641)
WIDE(0642) WIDE(0643) WIDE(0644) WIDE(0645) WIDE(0646) WIDE(0647)
WIDE(0648) WIDE(0649) WIDE(0650) WIDE(0651) WIDE(0652) WIDE(0653)
WIDE(0654) WIDE(0655) WIDE(0656) WIDE(0657) WIDE(0658) WIDE(0659)
WIDE(0660) WIDE(0661) WIDE(0662) WIDE(0663) WIDE(0664) WIDE(0665)
WIDE(0666) WIDE(0667) WIDE(0668) WIDE(0669) WIDE(0670) WIDE(0671)
WIDE(0672) WIDE(0673) WIDE(0674) WIDE(0675) WIDE(0676) WIDE(0677)
WIDE(0678) WIDE(0679) WIDE(0680) WIDE(0681) WIDE(0682) WIDE(0683)
WIDE(0684) WIDE(0685) WIDE(0686) WIDE(0687) WIDE(0688) WIDE(0689)
WIDE(0690) WIDE(0691) WIDE(0692) WIDE(0693) WIDE(0694) WIDE(0695)
WIDE(0696) WIDE(0697) WIDE(0698) WIDE(0699) WIDE(0700) WIDE(0701)
WIDE(0702) WIDE(0703) WIDE(0704) WIDE(0705) WIDE(0706) WIDE(0707)
WIDE(0708) WIDE(0709) WIDE(0710) WIDE(0711) WIDE(0712) WIDE(0713)
WIDE(0714) WIDE(0715) WIDE(0716) WIDE(0717) WIDE(0718) WIDE(0719)
WIDE(0720) WIDE(0721) WIDE(0722) WIDE(0723) WIDE(0724) WIDE(0725)
WIDE(0726) WIDE(0727) WIDE(0728) WIDE(0729) WIDE(0730) WIDE(0731)
WIDE(0732) WIDE(0733) WIDE(0734) WIDE(0735) WIDE(0736) WIDE(0737)
WIDE(0738) WIDE(0739) WIDE(0740) WIDE(0741) WIDE(0742) WIDE(0743)
WIDE(0744) WIDE(0745) WIDE(0746) WIDE(0747) WIDE(0748) WIDE(0749)
WIDE(0750) WIDE(0751) WIDE(0752) WIDE(0753) WIDE(0754) WIDE(0755)
WIDE(0756) WIDE(0757) WIDE(0758) WIDE(0759) WIDE(0760) WIDE(0761)
WIDE(0762) WIDE(0763) WIDE(0764) WIDE(0765) WIDE(0766) WIDE(0767)
WIDE(0768) WIDE(0769) WIDE(0770) WIDE(0771) WIDE(0772) WIDE(0773)
WIDE(0774) WIDE(0775) WIDE(0776) WIDE(0777) WIDE(0778) WIDE(0779)
WIDE(0780) WIDE(0781) WIDE(0782) WIDE(0783) WIDE(0784) WIDE(0785)
WIDE(0786) WIDE(0787) WIDE(0788) WIDE(0789) WIDE(0790) WIDE(0791)
WIDE(0792) WIDE(0793) WIDE(0794) WIDE(0795) WIDE(0796) WIDE(0797)
WIDE(0798) WIDE(0799) WIDE(0800) WIDE(0801) WIDE(0802) WIDE(0803)
WIDE(0804) WIDE(0805) WIDE(0806) WIDE(0807) WIDE(0808) WIDE(0809)
WIDE(0810) WIDE(0811) WIDE(0812) WIDE(0813) WIDE(0814) WIDE(0815)
WIDE(0816) WIDE(0817) WIDE(0818) WIDE(0819) WIDE(0820) WIDE(0821)
WIDE(0822) WIDE(0823) WIDE(0824) WIDE(0825) WIDE(0826) WIDE(0827)
WIDE(0828) WIDE(0829) WIDE(0830) WIDE(0831) WIDE(0832) WIDE(0833)
WIDE(0834) WIDE(0835) WIDE(0836) WIDE(0837) WIDE(0838) WIDE(0839)
WIDE(0840) WIDE(0841) WIDE(0842) WIDE(0843) WIDE(0844) WIDE(0845)
WIDE(0846) WIDE(0847) WIDE(0848) WIDE(0849) WIDE(0850) WIDE(0851)
WIDE(0852) WIDE(0853) WIDE(0854) WIDE(0855) WIDE(0856) WIDE(0857)
WIDE(0858) WIDE(0859) WIDE(0860) WIDE(0861) WIDE(0862) WIDE(0863)
WIDE(0864) WIDE(0865) WIDE(0866) WIDE(0867) WIDE(0868) WIDE(0869)
WIDE(0870) WIDE(0871) WIDE(0872) WIDE(0873) WIDE(0874) WIDE(0875)
WIDE(0876) WIDE(0877) WIDE(0878) WIDE(0879) WIDE(0880) WIDE(0881)
WIDE(0882) WIDE(0883) WIDE(0884) WIDE(0885) WIDE(0886) WIDE(0887)
WIDE(0888) WIDE(0889) WIDE(0890) WIDE(0891) WIDE(0892) WIDE(0893)
WIDE(0894) WIDE(0895) WIDE(0896) WIDE(0897) WIDE(0898) WIDE(0899)
WIDE(0900) WIDE(0901) WIDE(0902) WIDE(0903) WIDE(0904) WIDE(0905)
WIDE(0906) WIDE(0907) WIDE(0908) WIDE(0909) WIDE(0910) WIDE(0911)
WIDE(0912) WIDE(0913) WIDE(0914) WIDE(0915) WIDE(0916) WIDE(0917)
WIDE(0918) WIDE(0919) WIDE(0920) WIDE(0921) WIDE(0922) WIDE(0923)
WIDE(0924) WIDE(0925) WIDE(0926) WIDE(0927) WIDE(0928) WIDE(0929)
WIDE(0930) WIDE(0931) WIDE(0932) WIDE(0933) WIDE(0934) WIDE(0935)
WIDE(0936) WIDE(0937) WIDE(0938) WIDE(0939) WIDE(0940) WIDE(0941)
WIDE(0942) WIDE(0943) WIDE(0944) WIDE(0945) WIDE(0946) WIDE(0947)
WIDE(0948) WIDE(0949) WIDE(0950) WIDE(0951) WIDE(0952) WIDE(0953)
WIDE(0954) WIDE(0955) WIDE(0956) WIDE(0957) WIDE(0958) WIDE(0959)
WIDE(0960) WIDE(0961) WIDE(0962) WIDE(0963) WIDE(0964) WIDE(0965)
WIDE(0966) WIDE(0967) WIDE(0968) WIDE(0969) WIDE(0970) WIDE(0971)
WIDE(0972) WIDE(0973) WIDE(0974) WIDE(0975) WIDE(0976) WIDE(0977)
WIDE(0978) WIDE(0979) WIDE(0980) WIDE(0981) WIDE(0982) WIDE(0983)
WIDE(0984) WIDE(0985) WIDE(0986) WIDE(0987) WIDE(0988) WIDE(0989)
WIDE(0990) WIDE(0991) WIDE(0992) WIDE(0993) WIDE(0994) WIDE(0995)
WIDE(0996) WIDE(0997) WIDE(0998) WIDE(0999) WIDE(1000) WIDE(1001)
WIDE(1002) WIDE(1003) WIDE(1004) WIDE(1005) WIDE(1006) WIDE(1007)
WIDE(1008) WIDE(1009) WIDE(1010) WIDE(1011) WIDE(1012) WIDE(1013)
WIDE(1014) WIDE(1015) WIDE(1016) WIDE(1017) WIDE(1018) WIDE(1019)
WIDE(1020) WIDE(1021) WIDE(1022) WIDE(1023)

/* Called through pointers only: no direct call for the compiler to clone. */
static int (*const wide[KTARGET_WIDE])(void) = {
	ktarget_wide_0000, ktarget_wide_0001, ktarget_wide_0002,
	ktarget_wide_0003, ktarget_wide_0004, ktarget_wide_0005,
	ktarget_wide_0006, ktarget_wide_0007, ktarget_wide_0008,
	ktarget_wide_0009, ktarget_wide_0010, ktarget_wide_0011,
	ktarget_wide_0012, ktarget_wide_0013, ktarget_wide_0014,
	ktarget_wide_0015, ktarget_wide_0016, ktarget_wide_0017,
	ktarget_wide_0018, ktarget_wide_0019, ktarget_wide_0020,
	ktarget_wide_0021, ktarget_wide_0022, ktarget_wide_0023,
	ktarget_wide_0024, ktarget_wide_0025, ktarget_wide_0026,
	ktarget_wide_0027, ktarget_wide_0028, ktarget_wide_0029,
	ktarget_wide_0030, ktarget_wide_0031, ktarget_wide_0032,
	ktarget_wide_0033, ktarget_wide_0034, ktarget_wide_0035,
	ktarget_wide_0036, ktarget_wide_0037, ktarget_wide_0038,
	ktarget_wide_0039, ktarget_wide_0040, ktarget_wide_0041,
	ktarget_wide_0042, ktarget_wide_0043, ktarget_wide_0044,
	ktarget_wide_0045, ktarget_wide_0046, ktarget_wide_0047,
	ktarget_wide_0048, ktarget_wide_0049, ktarget_wide_0050,
	ktarget_wide_0051, ktarget_wide_0052, ktarget_wide_0053,
	ktarget_wide_0054, ktarget_wide_0055, ktarget_wide_0056,
	ktarget_wide_0057, ktarget_wide_0058, ktarget_wide_0059,
	ktarget_wide_0060, ktarget_wide_0061, ktarget_wide_0062,
	ktarget_wide_0063, ktarget_wide_0064, ktarget_wide_0065,
	ktarget_wide_0066, ktarget_wide_0067, ktarget_wide_0068,
	ktarget_wide_0069, ktarget_wide_0070, ktarget_wide_0071,
	ktarget_wide_0072, ktarget_wide_0073, ktarget_wide_0074,
	ktarget_wide_0075, ktarget_wide_0076, ktarget_wide_0077,
	ktarget_wide_0078, ktarget_wide_0079, ktarget_wide_0080,
	ktarget_wide_0081, ktarget_wide_0082, ktarget_wide_0083,
	ktarget_wide_0084, ktarget_wide_0085, ktarget_wide_0086,
	ktarget_wide_0087, ktarget_wide_0088, ktarget_wide_0089,
	ktarget_wide_0090, ktarget_wide_0091, ktarget_wide_0092,
	ktarget_wide_0093, ktarget_wide_0094, ktarget_wide_0095,
	ktarget_wide_0096, ktarget_wide_0097, ktarget_wide_0098,
	ktarget_wide_0099, ktarget_wide_0100, ktarget_wide_0101,
	ktarget_wide_0102, ktarget_wide_0103, ktarget_wide_0104,
	ktarget_wide_0105, ktarget_wide_0106, ktarget_wide_0107,
	ktarget_wide_0108, ktarget_wide_0109, ktarget_wide_0110,
	ktarget_wide_0111, ktarget_wide_0112, ktarget_wide_0113,
	ktarget_wide_0114, ktarget_wide_0115, ktarget_wide_0116,
	ktarget_wide_0117, ktarget_wide_0118, ktarget_wide_0119,
	ktarget_wide_0120, ktarget_wide_0121, ktarget_wide_0122,
	ktarget_wide_0123, ktarget_wide_0124, ktarget_wide_0125,
	ktarget_wide_0126, ktarget_wide_0127, ktarget_wide_0128,
	ktarget_wide_0129, ktarget_wide_0130, ktarget_wide_0131,
	ktarget_wide_0132, ktarget_wide_0133, ktarget_wide_0134,
	ktarget_wide_0135, ktarget_wide_0136, ktarget_wide_0137,
	ktarget_wide_0138, ktarget_wide_0139, ktarget_wide_0140,
	ktarget_wide_0141, ktarget_wide_0142, ktarget_wide_0143,
	ktarget_wide_0144, ktarget_wide_0145, ktarget_wide_0146,
	ktarget_wide_0147, ktarget_wide_0148, ktarget_wide_0149,
	ktarget_wide_0150, ktarget_wide_0151, ktarget_wide_0152,
	ktarget_wide_0153, ktarget_wide_0154, ktarget_wide_0155,
	ktarget_wide_0156, ktarget_wide_0157, ktarget_wide_0158,
	ktarget_wide_0159, ktarget_wide_0160, ktarget_wide_0161,
	ktarget_wide_0162, ktarget_wide_0163, ktarget_wide_0164,
	ktarget_wide_0165, ktarget_wide_0166, ktarget_wide_0167,
	ktarget_wide_0168, ktarget_wide_0169, ktarget_wide_0170,
	ktarget_wide_0171, ktarget_wide_0172, ktarget_wide_0173,
	ktarget_wide_0174, ktarget_wide_0175, ktarget_wide_0176,
	ktarget_wide_0177, ktarget_wide_0178, ktarget_wide_0179,
	ktarget_wide_0180, ktarget_wide_0181, ktarget_wide_0182,
	ktarget_wide_0183, ktarget_wide_0184, ktarget_wide_0185,
	ktarget_wide_0186, ktarget_wide_0187, ktarget_wide_0188,
	ktarget_wide_0189, ktarget_wide_0190, ktarget_wide_0191,
	ktarget_wide_0192, ktarget_wide_0193, ktarget_wide_0194,
	ktarget_wide_0195, ktarget_wide_0196, ktarget_wide_0197,
	ktarget_wide_0198, ktarget_wide_0199, ktarget_wide_0200,
	ktarget_wide_0201, ktarget_wide_0202, ktarget_wide_0203,
	ktarget_wide_0204, ktarget_wide_0205, ktarget_wide_0206,
	ktarget_wide_0207, ktarget_wide_0208, ktarget_wide_0209,
	ktarget_wide_0210, ktarget_wide_0211, ktarget_wide_0212,
	ktarget_wide_0213, ktarget_wide_0214, ktarget_wide_0215,
	ktarget_wide_0216, ktarget_wide_0217, ktarget_wide_0218,
	ktarget_wide_0219, ktarget_wide_0220, ktarget_wide_0221,
	ktarget_wide_0222, ktarget_wide_0223, ktarget_wide_0224,
	ktarget_wide_0225, ktarget_wide_0226, ktarget_wide_0227,
	ktarget_wide_0228, ktarget_wide_0229, ktarget_wide_0230,
	ktarget_wide_0231, ktarget_wide_0232, ktarget_wide_0233,
	ktarget_wide_0234, ktarget_wide_0235, ktarget_wide_0236,
	ktarget_wide_0237, ktarget_wide_0238, ktarget_wide_0239,
	ktarget_wide_0240, ktarget_wide_0241, ktarget_wide_0242,
	ktarget_wide_0243, ktarget_wide_0244, ktarget_wide_0245,
	ktarget_wide_0246, ktarget_wide_0247, ktarget_wide_0248,
	ktarget_wide_0249, ktarget_wide_0250, ktarget_wide_0251,
	ktarget_wide_0252, ktarget_wide_0253, ktarget_wide_0254,
	ktarget_wide_0255, ktarget_wide_0256, ktarget_wide_0257,
	ktarget_wide_0258, ktarget_wide_0259, ktarget_wide_0260,
	ktarget_wide_0261, ktarget_wide_0262, ktarget_wide_0263,
	ktarget_wide_0264, ktarget_wide_0265, ktarget_wide_0266,
	ktarget_wide_0267, ktarget_wide_0268, ktarget_wide_0269,
	ktarget_wide_0270, ktarget_wide_0271, ktarget_wide_0272,
	ktarget_wide_0273, ktarget_wide_0274, ktarget_wide_0275,
	ktarget_wide_0276, ktarget_wide_0277, ktarget_wide_0278,
	ktarget_wide_0279, ktarget_wide_0280, ktarget_wide_0281,
	ktarget_wide_0282, ktarget_wide_0283, ktarget_wide_0284,
	ktarget_wide_0285, ktarget_wide_0286, ktarget_wide_0287,
	ktarget_wide_0288, ktarget_wide_0289, ktarget_wide_0290,
	ktarget_wide_0291, ktarget_wide_0292, ktarget_wide_0293,
	ktarget_wide_0294, ktarget_wide_0295, ktarget_wide_0296,
	ktarget_wide_0297, ktarget_wide_0298, ktarget_wide_0299,
	ktarget_wide_0300, ktarget_wide_0301, ktarget_wide_0302,
	ktarget_wide_0303, ktarget_wide_0304, ktarget_wide_0305,
	ktarget_wide_0306, ktarget_wide_0307, ktarget_wide_0308,
	ktarget_wide_0309, ktarget_wide_0310, ktarget_wide_0311,
	ktarget_wide_0312, ktarget_wide_0313, ktarget_wide_0314,
	ktarget_wide_0315, ktarget_wide_0316, ktarget_wide_0317,
	ktarget_wide_0318, ktarget_wide_0319, ktarget_wide_0320,
	ktarget_wide_0321, ktarget_wide_0322, ktarget_wide_0323,
	ktarget_wide_0324, ktarget_wide_0325, ktarget_wide_0326,
	ktarget_wide_0327, ktarget_wide_0328, ktarget_wide_0329,
	ktarget_wide_0330, ktarget_wide_0331, ktarget_wide_0332,
	ktarget_wide_0333, ktarget_wide_0334, ktarget_wide_0335,
	ktarget_wide_0336, ktarget_wide_0337, ktarget_wide_0338,
	ktarget_wide_0339, ktarget_wide_0340, ktarget_wide_0341,
	ktarget_wide_0342, ktarget_wide_0343, ktarget_wide_0344,
	ktarget_wide_0345, ktarget_wide_0346, ktarget_wide_0347,
	ktarget_wide_0348, ktarget_wide_0349, ktarget_wide_0350,
	ktarget_wide_0351, ktarget_wide_0352, ktarget_wide_0353,
	ktarget_wide_0354, ktarget_wide_0355, ktarget_wide_0356,
	ktarget_wide_0357, ktarget_wide_0358, ktarget_wide_0359,
	ktarget_wide_0360, ktarget_wide_0361, ktarget_wide_0362,
	ktarget_wide_0363, ktarget_wide_0364, ktarget_wide_0365,
	ktarget_wide_0366, ktarget_wide_0367, ktarget_wide_0368,
	ktarget_wide_0369, ktarget_wide_0370, ktarget_wide_0371,
	ktarget_wide_0372, ktarget_wide_0373, ktarget_wide_0374,
	ktarget_wide_0375, ktarget_wide_0376, ktarget_wide_0377,
	ktarget_wide_0378, ktarget_wide_0379, ktarget_wide_0380,
	ktarget_wide_0381, ktarget_wide_0382, ktarget_wide_0383,
	ktarget_wide_0384, ktarget_wide_0385, ktarget_wide_0386,
	ktarget_wide_0387, ktarget_wide_0388, ktarget_wide_0389,
	ktarget_wide_0390, ktarget_wide_0391, ktarget_wide_0392,
	ktarget_wide_0393, ktarget_wide_0394, ktarget_wide_0395,
	ktarget_wide_0396, ktarget_wide_0397, ktarget_wide_0398,
	ktarget_wide_0399, ktarget_wide_0400, ktarget_wide_0401,
	ktarget_wide_0402, ktarget_wide_0403, ktarget_wide_0404,
	ktarget_wide_0405, ktarget_wide_0406, ktarget_wide_0407,
	ktarget_wide_0408, ktarget_wide_0409, ktarget_wide_0410,
	ktarget_wide_0411, ktarget_wide_0412, ktarget_wide_0413,
	ktarget_wide_0414, ktarget_wide_0415, ktarget_wide_0416,
	ktarget_wide_0417, ktarget_wide_0418, ktarget_wide_0419,
	ktarget_wide_0420, ktarget_wide_0421, ktarget_wide_0422,
	ktarget_wide_0423, ktarget_wide_0424, ktarget_wide_0425,
	ktarget_wide_0426, ktarget_wide_0427, ktarget_wide_0428,
	ktarget_wide_0429, ktarget_wide_0430, ktarget_wide_0431,
	ktarget_wide_0432, ktarget_wide_0433, ktarget_wide_0434,
	ktarget_wide_0435, ktarget_wide_0436, ktarget_wide_0437,
	ktarget_wide_0438, ktarget_wide_0439, ktarget_wide_0440,
	ktarget_wide_0441, ktarget_wide_0442, ktarget_wide_0443,
	ktarget_wide_0444, ktarget_wide_0445, ktarget_wide_0446,
	ktarget_wide_0447, ktarget_wide_0448, ktarget_wide_0449,
	ktarget_wide_0450, ktarget_wide_0451, ktarget_wide_0452,
	ktarget_wide_0453, ktarget_wide_0454, ktarget_wide_0455,
	ktarget_wide_0456, ktarget_wide_0457, ktarget_wide_0458,
	ktarget_wide_0459, ktarget_wide_0460, ktarget_wide_0461,
	ktarget_wide_0462, ktarget_wide_0463, ktarget_wide_0464,
	ktarget_wide_0465, ktarget_wide_0466, ktarget_wide_0467,
	ktarget_wide_0468, ktarget_wide_0469, ktarget_wide_0470,
	ktarget_wide_0471, ktarget_wide_0472, ktarget_wide_0473,
	ktarget_wide_0474, ktarget_wide_0475, ktarget_wide_0476,
	ktarget_wide_0477, ktarget_wide_0478, ktarget_wide_0479,
	ktarget_wide_0480, ktarget_wide_0481, ktarget_wide_0482,
	ktarget_wide_0483, ktarget_wide_0484, ktarget_wide_0485,
	ktarget_wide_0486, ktarget_wide_0487, ktarget_wide_0488,
	ktarget_wide_0489, ktarget_wide_0490, ktarget_wide_0491,
	ktarget_wide_0492, ktarget_wide_0493, ktarget_wide_0494,
	ktarget_wide_0495, ktarget_wide_0496, ktarget_wide_0497,
	ktarget_wide_0498, ktarget_wide_0499, ktarget_wide_0500,
	ktarget_wide_0501, ktarget_wide_0502, ktarget_wide_0503,
	ktarget_wide_0504, ktarget_wide_0505, ktarget_wide_0506,
	ktarget_wide_0507, ktarget_wide_0508, ktarget_wide_0509,
	ktarget_wide_0510, ktarget_wide_0511, ktarget_wide_0512,
	ktarget_wide_0513, ktarget_wide_0514, ktarget_wide_0515,
	ktarget_wide_0516, ktarget_wide_0517, ktarget_wide_0518,
	ktarget_wide_0519, ktarget_wide_0520, ktarget_wide_0521,
	ktarget_wide_0522, ktarget_wide_0523, ktarget_wide_0524,
	ktarget_wide_0525, ktarget_wide_0526, ktarget_wide_0527,
	ktarget_wide_0528, ktarget_wide_0529, ktarget_wide_0530,
	ktarget_wide_0531, ktarget_wide_0532, ktarget_wide_0533,
	ktarget_wide_0534, ktarget_wide_0535, ktarget_wide_0536,
	ktarget_wide_0537, ktarget_wide_0538, ktarget_wide_0539,
	ktarget_wide_0540, ktarget_wide_0541, ktarget_wide_0542,
	ktarget_wide_0543, ktarget_wide_0544, ktarget_wide_0545,
	ktarget_wide_0546, ktarget_wide_0547, ktarget_wide_0548,
	ktarget_wide_0549, ktarget_wide_0550, ktarget_wide_0551,
	ktarget_wide_0552, ktarget_wide_0553, ktarget_wide_0554,
	ktarget_wide_0555, ktarget_wide_0556, ktarget_wide_0557,
	ktarget_wide_0558, ktarget_wide_0559, ktarget_wide_0560,
	ktarget_wide_0561, ktarget_wide_0562, ktarget_wide_0563,
	ktarget_wide_0564, ktarget_wide_0565, ktarget_wide_0566,
	ktarget_wide_0567, ktarget_wide_0568, ktarget_wide_0569,
	ktarget_wide_0570, ktarget_wide_0571, ktarget_wide_0572,
	ktarget_wide_0573, ktarget_wide_0574, ktarget_wide_0575,
	ktarget_wide_0576, ktarget_wide_0577, ktarget_wide_0578,
	ktarget_wide_0579, ktarget_wide_0580, ktarget_wide_0581,
	ktarget_wide_0582, ktarget_wide_0583, ktarget_wide_0584,
	ktarget_wide_0585, ktarget_wide_0586, ktarget_wide_0587,
	ktarget_wide_0588, ktarget_wide_0589, ktarget_wide_0590,
	ktarget_wide_0591, ktarget_wide_0592, ktarget_wide_0593,
	ktarget_wide_0594, ktarget_wide_0595, ktarget_wide_0596,
	ktarget_wide_0597, ktarget_wide_0598, ktarget_wide_0599,
	ktarget_wide_0600, ktarget_wide_0601, ktarget_wide_0602,
	ktarget_wide_0603, ktarget_wide_0604, ktarget_wide_0605,
	ktarget_wide_0606, ktarget_wide_0607, ktarget_wide_0608,
	ktarget_wide_0609, ktarget_wide_0610, ktarget_wide_0611,
	ktarget_wide_0612, ktarget_wide_0613, ktarget_wide_0614,
	ktarget_wide_0615, ktarget_wide_0616, ktarget_wide_0617,
	ktarget_wide_0618, ktarget_wide_0619, ktarget_wide_0620,
	ktarget_wide_0621, ktarget_wide_0622, ktarget_wide_0623,
	ktarget_wide_0624, ktarget_wide_0625, ktarget_wide_0626,
	ktarget_wide_0627, ktarget_wide_0628, ktarget_wide_0629,
	ktarget_wide_0630, ktarget_wide_0631, ktarget_wide_0632,
	ktarget_wide_0633, ktarget_wide_0634, ktarget_wide_0635,
	ktarget_wide_0636, ktarget_wide_0637, ktarget_wide_0638,
	ktarget_wide_0639, ktarget_wide_0640, ktarget_wide_0641,
	ktarget_wide_0642, ktarget_wide_0643, ktarget_wide_0644,
	ktarget_wide_0645, ktarget_wide_0646, ktarget_wide_0647,
	ktarget_wide_0648, ktarget_wide_0649, ktarget_wide_0650,
	ktarget_wide_0651, ktarget_wide_0652, ktarget_wide_0653,
	ktarget_wide_0654, ktarget_wide_0655, ktarget_wide_0656,
	ktarget_wide_0657, ktarget_wide_0658, ktarget_wide_0659,
	ktarget_wide_0660, ktarget_wide_0661, ktarget_wide_0662,
	ktarget_wide_0663, ktarget_wide_0664, ktarget_wide_0665,
	ktarget_wide_0666, ktarget_wide_0667, ktarget_wide_0668,
	ktarget_wide_0669, ktarget_wide_0670, ktarget_wide_0671,
	ktarget_wide_0672, ktarget_wide_0673, ktarget_wide_0674,
	ktarget_wide_0675, ktarget_wide_0676, ktarget_wide_0677,
	ktarget_wide_0678, ktarget_wide_0679, ktarget_wide_0680,
	ktarget_wide_0681, ktarget_wide_0682, ktarget_wide_0683,
	ktarget_wide_0684, ktarget_wide_0685, ktarget_wide_0686,
	ktarget_wide_0687, ktarget_wide_0688, ktarget_wide_0689,
	ktarget_wide_0690, ktarget_wide_0691, ktarget_wide_0692,
	ktarget_wide_0693, ktarget_wide_0694, ktarget_wide_0695,
	ktarget_wide_0696, ktarget_wide_0697, ktarget_wide_0698,
	ktarget_wide_0699, ktarget_wide_0700, ktarget_wide_0701,
	ktarget_wide_0702, ktarget_wide_0703, ktarget_wide_0704,
	ktarget_wide_0705, ktarget_wide_0706, ktarget_wide_0707,
	ktarget_wide_0708, ktarget_wide_0709, ktarget_wide_0710,
	ktarget_wide_0711, ktarget_wide_0712, ktarget_wide_0713,
	ktarget_wide_0714, ktarget_wide_0715, ktarget_wide_0716,
	ktarget_wide_0717, ktarget_wide_0718, ktarget_wide_0719,
	ktarget_wide_0720, ktarget_wide_0721, ktarget_wide_0722,
	ktarget_wide_0723, ktarget_wide_0724, ktarget_wide_0725,
	ktarget_wide_0726, ktarget_wide_0727, ktarget_wide_0728,
	ktarget_wide_0729, ktarget_wide_0730, ktarget_wide_0731,
	ktarget_wide_0732, ktarget_wide_0733, ktarget_wide_0734,
	ktarget_wide_0735, ktarget_wide_0736, ktarget_wide_0737,
	ktarget_wide_0738, ktarget_wide_0739, ktarget_wide_0740,
	ktarget_wide_0741, ktarget_wide_0742, ktarget_wide_0743,
	ktarget_wide_0744, ktarget_wide_0745, ktarget_wide_0746,
	ktarget_wide_0747, ktarget_wide_0748, ktarget_wide_0749,
	ktarget_wide_0750, ktarget_wide_0751, ktarget_wide_0752,
	ktarget_wide_0753, ktarget_wide_0754, ktarget_wide_0755,
	ktarget_wide_0756, ktarget_wide_0757, ktarget_wide_0758,
	ktarget_wide_0759, ktarget_wide_0760, ktarget_wide_0761,
	ktarget_wide_0762, ktarget_wide_0763, ktarget_wide_0764,
	ktarget_wide_0765, ktarget_wide_0766, ktarget_wide_0767,
	ktarget_wide_0768, ktarget_wide_0769, ktarget_wide_0770,
	ktarget_wide_0771, ktarget_wide_0772, ktarget_wide_0773,
	ktarget_wide_0774, ktarget_wide_0775, ktarget_wide_0776,
	ktarget_wide_0777, ktarget_wide_0778, ktarget_wide_0779,
	ktarget_wide_0780, ktarget_wide_0781, ktarget_wide_0782,
	ktarget_wide_0783, ktarget_wide_0784, ktarget_wide_0785,
	ktarget_wide_0786, ktarget_wide_0787, ktarget_wide_0788,
	ktarget_wide_0789, ktarget_wide_0790, ktarget_wide_0791,
	ktarget_wide_0792, ktarget_wide_0793, ktarget_wide_0794,
	ktarget_wide_0795, ktarget_wide_0796, ktarget_wide_0797,
	ktarget_wide_0798, ktarget_wide_0799, ktarget_wide_0800,
	ktarget_wide_0801, ktarget_wide_0802, ktarget_wide_0803,
	ktarget_wide_0804, ktarget_wide_0805, ktarget_wide_0806,
	ktarget_wide_0807, ktarget_wide_0808, ktarget_wide_0809,
	ktarget_wide_0810, ktarget_wide_0811, ktarget_wide_0812,
	ktarget_wide_0813, ktarget_wide_0814, ktarget_wide_0815,
	ktarget_wide_0816, ktarget_wide_0817, ktarget_wide_0818,
	ktarget_wide_0819, ktarget_wide_0820, ktarget_wide_0821,
	ktarget_wide_0822, ktarget_wide_0823, ktarget_wide_0824,
	ktarget_wide_0825, ktarget_wide_0826, ktarget_wide_0827,
	ktarget_wide_0828, ktarget_wide_0829, ktarget_wide_0830,
	ktarget_wide_0831, ktarget_wide_0832, ktarget_wide_0833,
	ktarget_wide_0834, ktarget_wide_0835, ktarget_wide_0836,
	ktarget_wide_0837, ktarget_wide_0838, ktarget_wide_0839,
	ktarget_wide_0840, ktarget_wide_0841, ktarget_wide_0842,
	ktarget_wide_0843, ktarget_wide_0844, ktarget_wide_0845,
	ktarget_wide_0846, ktarget_wide_0847, ktarget_wide_0848,
	ktarget_wide_0849, ktarget_wide_0850, ktarget_wide_0851,
	ktarget_wide_0852, ktarget_wide_0853, ktarget_wide_0854,
	ktarget_wide_0855, ktarget_wide_0856, ktarget_wide_0857,
	ktarget_wide_0858, ktarget_wide_0859, ktarget_wide_0860,
	ktarget_wide_0861, ktarget_wide_0862, ktarget_wide_0863,
	ktarget_wide_0864, ktarget_wide_0865, ktarget_wide_0866,
	ktarget_wide_0867, ktarget_wide_0868, ktarget_wide_0869,
	ktarget_wide_0870, ktarget_wide_0871, ktarget_wide_0872,
	ktarget_wide_0873, ktarget_wide_0874, ktarget_wide_0875,
	ktarget_wide_0876, ktarget_wide_0877, ktarget_wide_0878,
	ktarget_wide_0879, ktarget_wide_0880, ktarget_wide_0881,
	ktarget_wide_0882, ktarget_wide_0883, ktarget_wide_0884,
	ktarget_wide_0885, ktarget_wide_0886, ktarget_wide_0887,
	ktarget_wide_0888, ktarget_wide_0889, ktarget_wide_0890,
	ktarget_wide_0891, ktarget_wide_0892, ktarget_wide_0893,
	ktarget_wide_0894, ktarget_wide_0895, ktarget_wide_0896,
	ktarget_wide_0897, ktarget_wide_0898, ktarget_wide_0899,
	ktarget_wide_0900, ktarget_wide_0901, ktarget_wide_0902,
	ktarget_wide_0903, ktarget_wide_0904, ktarget_wide_0905,
	ktarget_wide_0906, ktarget_wide_0907, ktarget_wide_0908,
	ktarget_wide_0909, ktarget_wide_0910, ktarget_wide_0911,
	ktarget_wide_0912, ktarget_wide_0913, ktarget_wide_0914,
	ktarget_wide_0915, ktarget_wide_0916, ktarget_wide_0917,
	ktarget_wide_0918, ktarget_wide_0919, ktarget_wide_0920,
	ktarget_wide_0921, ktarget_wide_0922, ktarget_wide_0923,
	ktarget_wide_0924, ktarget_wide_0925, ktarget_wide_0926,
	ktarget_wide_0927, ktarget_wide_0928, ktarget_wide_0929,
	ktarget_wide_0930, ktarget_wide_0931, ktarget_wide_0932,
	ktarget_wide_0933, ktarget_wide_0934, ktarget_wide_0935,
	ktarget_wide_0936, ktarget_wide_0937, ktarget_wide_0938,
	ktarget_wide_0939, ktarget_wide_0940, ktarget_wide_0941,
	ktarget_wide_0942, ktarget_wide_0943, ktarget_wide_0944,
	ktarget_wide_0945, ktarget_wide_0946, ktarget_wide_0947,
	ktarget_wide_0948, ktarget_wide_0949, ktarget_wide_0950,
	ktarget_wide_0951, ktarget_wide_0952, ktarget_wide_0953,
	ktarget_wide_0954, ktarget_wide_0955, ktarget_wide_0956,
	ktarget_wide_0957, ktarget_wide_0958, ktarget_wide_0959,
	ktarget_wide_0960, ktarget_wide_0961, ktarget_wide_0962,
	ktarget_wide_0963, ktarget_wide_0964, ktarget_wide_0965,
	ktarget_wide_0966, ktarget_wide_0967, ktarget_wide_0968,
	ktarget_wide_0969, ktarget_wide_0970, ktarget_wide_0971,
	ktarget_wide_0972, ktarget_wide_0973, ktarget_wide_0974,
	ktarget_wide_0975, ktarget_wide_0976, ktarget_wide_0977,
	ktarget_wide_0978, ktarget_wide_0979, ktarget_wide_0980,
	ktarget_wide_0981, ktarget_wide_0982, ktarget_wide_0983,
	ktarget_wide_0984, ktarget_wide_0985, ktarget_wide_0986,
	ktarget_wide_0987, ktarget_wide_0988, ktarget_wide_0989,
	ktarget_wide_0990, ktarget_wide_0991, ktarget_wide_0992,
	ktarget_wide_0993, ktarget_wide_0994, ktarget_wide_0995,
	ktarget_wide_0996, ktarget_wide_0997, ktarget_wide_0998,
	ktarget_wide_0999, ktarget_wide_1000, ktarget_wide_1001,
	ktarget_wide_1002, ktarget_wide_1003, ktarget_wide_1004,
	ktarget_wide_1005, ktarget_wide_1006, ktarget_wide_1007,
	ktarget_wide_1008, ktarget_wide_1009, ktarget_wide_1010,
	ktarget_wide_1011, ktarget_wide_1012, ktarget_wide_1013,
	ktarget_wide_1014, ktarget_wide_1015, ktarget_wide_1016,
	ktarget_wide_1017, ktarget_wide_1018, ktarget_wide_1019,
	ktarget_wide_1020, ktarget_wide_1021, ktarget_wide_1022,
	ktarget_wide_1023,
};

static int wide_sink;

int kwide_run(unsigned int n, unsigned int rounds, u64 *calls, u64 *elapsed)
{
	unsigned int r, i;
	int sum = 0;
	u64 t0;

	if (!n || n > KTARGET_WIDE)
		return -EINVAL;
	t0 = ktime_get_ns();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++)
			sum += wide[i]();
	*elapsed = ktime_get_ns() - t0;
	WRITE_ONCE(wide_sink, sum);
	*calls = (u64)n * rounds;
	return 0;
}

void kwide_init(struct dentry *dir)
{
	debugfs_create_u32_array("wide_counts", 0400, dir, &counts_array);
}
